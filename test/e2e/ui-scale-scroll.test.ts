/**
 * Nothing breaks at scale (issue #25): on a memory of ~100k facts (helpers/big-memory.ts), in
 * Chromium over the bridge, the Timeline is wheel-scrolled through more than 10,000 px — with its
 * groups collapsed, with groups opened, after zooming in and out and dragging the as-of cursor — and
 * so is the Facts list; any page error or console error fails the test (the Timeline went blank
 * with React error #185, maximum update depth exceeded, after ~4,000 px), and the screen still
 * shows its rows afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { startBigUi } from './helpers/big-memory';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { dragAsOfTo } from './helpers/timeline';
import { go, type UiSession } from './helpers/ui-session';
import { wheelThrough } from './helpers/wheel-scroll';

let ui: UiSession;

/** The page's errors so far (uncaught errors and console errors), none expected. */
const problems = () => ui.browser.problems;

/** A fresh page on `hash`, its problems so far forgotten (one test's crash does not fail the next). */
async function fresh(page: Page, hash: string): Promise<void> {
  await go(page, hash);
  await page.reload();
  await page.locator('nav[aria-label="Main"]').waitFor();
  ui.browser.problems.length = 0;
}

async function expectTimelineRows(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.tl-body .tl-group, .tl-body .tl-row').count()).toBeGreaterThan(5);
  // Rows fetched, not only placeholders: some row in view has a name.
  await expect.poll(() => page.locator('.tl-body .tl-group-toggle, .tl-body .tl-label').first().innerText()).not.toBe('');
}

describe.skipIf(CHROMIUM_MISSING !== null)('the screens at 100k facts', () => {
  beforeAll(async () => {
    vi.stubEnv('TZ', 'UTC');
    vi.stubEnv('TEMPORA_TZ', 'UTC');
    ({ ui } = await startBigUi({ observations: 100_000 }));
    ui.page.setDefaultTimeout(30_000);
  }, 300_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && ui) await screenshot(ui.page, `failed-scale-${context.task.name.slice(0, 40).replace(/[^\w-]+/g, '-')}`);
  });

  afterAll(async () => {
    await ui?.close();
    vi.unstubAllEnvs();
  });

  it('scrolls the Timeline through 10,000 px with its groups collapsed', async () => {
    const { page } = ui;
    await fresh(page, '#/timeline');
    await expectTimelineRows(page);
    const scrolled = await wheelThrough(page, '.tl-body', 10_000, problems);
    expect(problems()).toEqual([]);
    expect(scrolled).toBeGreaterThanOrEqual(10_000);
    await expectTimelineRows(page);
  }, 180_000);

  it('scrolls the Timeline with groups opened, after zooming and dragging the as-of cursor', async () => {
    const { page } = ui;
    await fresh(page, '#/timeline');
    await expectTimelineRows(page);
    expect(await wheelThrough(page, '.tl-body', 5_000, problems)).toBeGreaterThanOrEqual(5_000);
    // A group opened far down the list, where the scroll stopped.
    const toggle = page.locator('.tl-body .tl-group-toggle[aria-expanded="false"]').nth(2);
    await toggle.click();
    await expect.poll(() => page.locator('.tl-body .tl-group-toggle[aria-expanded="true"]').count()).toBeGreaterThan(0);
    expect(await wheelThrough(page, '.tl-body', 10_000, problems)).toBeGreaterThanOrEqual(10_000);
    expect(problems()).toEqual([]);
    // Back at the top, the user's own group, open from the start.
    expect(await wheelThrough(page, '.tl-body', -30_000, problems)).toBeLessThan(0);
    expect(await page.locator('.tl-group[data-group="me"] .tl-group-toggle').getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('.tl-row[data-row^="me · "]').count()).toBeGreaterThan(0);
    // Zoom in and out by key and by Ctrl + wheel, and drag the cursor across the axis.
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    const body = (await page.locator('.tl-body').boundingBox())!;
    await page.mouse.move(body.x + body.width * 0.6, body.y + body.height / 2);
    await page.keyboard.down('Control');
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 200);
    await page.keyboard.up('Control');
    for (let i = 0; i < 2; i++) await page.keyboard.press('-');
    const axis = page.locator('.tl-axis');
    const from = Number(await axis.getAttribute('data-from'));
    const to = Number(await axis.getAttribute('data-to'));
    await dragAsOfTo(page, new Date(from + (to - from) * 0.2).toISOString());
    await dragAsOfTo(page, new Date(from + (to - from) * 0.8).toISOString());
    expect(problems()).toEqual([]);
    expect(await wheelThrough(page, '.tl-body', 10_000, problems)).toBeGreaterThanOrEqual(10_000);
    expect(problems()).toEqual([]);
    await expectTimelineRows(page);
  }, 180_000);

  it('scrolls the Facts list through 10,000 px', async () => {
    const { page } = ui;
    await fresh(page, '#/facts');
    await page.locator('.fact-row').first().waitFor();
    expect(await wheelThrough(page, '.fact-list', 10_000, problems)).toBeGreaterThanOrEqual(10_000);
    expect(problems()).toEqual([]);
    await expect.poll(() => page.locator('.fact-list .fact-row').count()).toBeGreaterThan(5);
  }, 180_000);
});


/**
 * The timeline at the size issue #14 found unreadable (test/fixtures/long-conversations-memory.ts:
 * ~800 fact versions, two subjects, ~50 rows, a long empty stretch before the data), in Chromium
 * against the bridge: groups by subject, the user's first and open, the others collapsed; Fit shows
 * where the facts are; the user's group fits in two screens, its many-valued rows folded to summary
 * bars until opened, and closes and opens from the keyboard; a bar's popover; the overview strip moves the window;
 * at 900 px the as-of panel folds to a button and labels stay inside their bars' visible part.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';
import { longConversationsMemory, type LongMemory } from '../fixtures/long-conversations-memory';

let fixture: LongMemory;

describe.skipIf(CHROMIUM_MISSING !== null)('the timeline of a long memory', () => {
  const ui = useUi(() => {
    fixture = longConversationsMemory();
    return { engine: { startWorker: false }, seed: (engine) => void engine.memory.facts.observe(fixture.observations, { where: 'long conversations' }) };
  });

  it('groups the rows by subject, the user first and open, the others collapsed, and fits where the facts are', async () => {
    const { page } = ui();
    expect(ui().engine.memory.facts.list({ history: true }).length).toBeGreaterThan(700);
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-corner').textContent()).toBe('53 rows');
    await expect.poll(() => page.locator('.tl-group').first().getAttribute('data-group')).toBe('me');
    // The user's own facts are in the first view: their group open; the other one, below them, collapsed.
    await expect.poll(() => page.locator('.tl-row[data-row^="me · "]').count()).toBeGreaterThan(10);
    expect(await page.locator('.tl-group[data-group="me"] .tl-group-toggle').getAttribute('aria-expanded')).toBe('true');
    await page.locator('.tl-body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
    const other = page.locator('.tl-group').last();
    await expect.poll(() => other.getAttribute('data-group')).not.toBe('me');
    expect(await other.locator('.tl-group-toggle').getAttribute('aria-expanded')).toBe('false');
    await page.locator('.tl-body').evaluate((body) => body.scrollTo(0, 0));
    // Fit starts at the data, not two and a half years before it.
    const axis = page.locator('.tl-axis');
    const from = Number(await axis.getAttribute('data-from'));
    expect(from).toBeGreaterThan(fixture.dataFrom - 20 * 86_400_000);
    expect(from).toBeLessThan(fixture.dataFrom);
    // The overview strip shows everything, the old facts too.
    expect(Number(await page.locator('.tl-overview').getAttribute('data-from'))).toBeLessThan(fixture.oldAt);
  });

  it('the user’s group fits in two screens, many-valued rows folded, and closes and opens from the keyboard', async () => {
    const { page } = ui();
    const header = page.locator('.tl-group[data-group="me"] .tl-group-toggle');
    await expect.poll(() => header.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.locator('.tl-row[data-row^="me · "]').count()).toBeGreaterThan(10);
    const viewport = page.viewportSize()!;
    const content = await page.evaluate(() => {
      const body = document.querySelector('.tl-body')!;
      return document.documentElement.scrollHeight - body.clientHeight + body.scrollHeight;
    });
    expect(content).toBeLessThanOrEqual(2 * viewport.height);
    // A row of 12 values at once is one summary bar until opened.
    const likes = page.locator('.tl-row[data-row="me · likes_0"]');
    await expect.poll(() => likes.getAttribute('class')).toContain('folded');
    expect(await likes.locator('g.tl-bar').count()).toBe(0);
    // No value replaced another: the count alone, not "· 0 changes" beside the ticks of their starts.
    expect(await likes.locator('.tl-summary text').textContent()).toBe('12 facts');
    await header.blur();
    await screenshot(page, 'timeline-grouped', { docs: true });
    await likes.getByRole('button', { name: /Show all 12/ }).press('Enter');
    await expect.poll(() => likes.locator('g.tl-bar').count()).toBe(12);
    await likes.getByRole('button', { name: /Fold/ }).press('Space');
    await expect.poll(() => likes.locator('g.tl-bar').count()).toBe(0);
    // Space closes the group, Enter opens it again; the focus stays on its header.
    await header.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.tl-row[data-row^="me · "]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('tl-group-toggle'))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.tl-row[data-row^="me · "]').count()).toBeGreaterThan(10);
  });

  it('shows a bar’s sentence, interval and closer in a popover on hover and focus', async () => {
    const { page } = ui();
    const status = page.locator('.tl-row[data-row="me · status_0"]');
    const closed = status.locator('g.tl-bar.closed').last();
    await closed.focus();
    const popover = page.getByTestId('bar-popover');
    await expect.poll(() => popover.textContent()).toMatch(/status 0 is now \d+\./);
    expect(await popover.textContent()).toMatch(/Closed by “I: status 0 is now \d+\.”/);
    expect(await popover.locator('a').getAttribute('href')).toMatch(/#\/facts\//);
    await closed.blur();
    await expect.poll(() => popover.count()).toBe(0);
    await status.locator('g.tl-bar.open').hover();
    await expect.poll(() => popover.textContent()).toContain('Still true.');
    await screenshot(page, 'timeline-popover');
  });

  it('moves the window with a click on the overview strip', async () => {
    const { page } = ui();
    const axis = page.locator('.tl-axis');
    const before = Number(await axis.getAttribute('data-from'));
    const strip = (await page.locator('.tl-overview').boundingBox())!;
    await page.mouse.click(strip.x + 10, strip.y + strip.height / 2);
    await expect.poll(async () => Number(await axis.getAttribute('data-from'))).toBeLessThan(before - 365 * 86_400_000);
    await page.getByRole('button', { name: 'Fit' }).click();
    await expect.poll(async () => Number(await axis.getAttribute('data-from'))).toBe(before);
  });

  it('at 900 px folds the as-of panel to a button and keeps labels inside their bars', async () => {
    const { page } = ui();
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 900, height: viewport.height });
    try {
      const toggle = page.getByRole('button', { name: /As-of answers/ });
      await toggle.waitFor();
      expect(await page.locator('.asof-panel').count()).toBe(0);
      // The chart keeps most of the width for time.
      const axisBox = (await page.locator('.tl-axis').boundingBox())!;
      expect(axisBox.width).toBeGreaterThan(400);
      // Zoomed in, a bar that began before the window shows its label at the left edge.
      await page.locator('.tl-chart').focus();
      for (let i = 0; i < 4; i++) await page.keyboard.press('+');
      const xs = await page.locator('.tl-row g.tl-bar text').evaluateAll((texts) => texts.map((t) => Number(t.getAttribute('x'))));
      expect(xs.length).toBeGreaterThan(0);
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(5);
      await page.locator('.tl-chart').blur();
      await screenshot(page, 'timeline-900');
      await toggle.click();
      await expect.poll(() => page.locator('.asof-panel').count()).toBe(1);
    } finally {
      await page.setViewportSize(viewport);
    }
  });
});


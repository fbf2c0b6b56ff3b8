/**
 * Layouts from 700 px up, Settings in Settings, errors in one sentence — in Chromium against the
 * bridge (real engine), at 900 and 700 px: the nav folds to icons that keep their names, the
 * conversation list is a drawer the keyboard opens and closes, nothing overflows its card, row or
 * toolbar, every "(change)" link lands in Settings, and a bad import file is said in one sentence
 * with the details behind a disclosure.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const WIDTHS = [900, 700] as const;
const NAV = ['Chat', 'Timeline', 'Facts', 'Models', 'Export / Import', 'Review', 'Settings'];

const LONG = 'Internationalisation-and-localisation-coordinator-for-the-Osaka-and-Kyoto-offices';

function seed(engine: TemporaEngine): void {
  engine.memory.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'Aiko Tanaka', fact: 'My manager is Aiko Tanaka.', reference_time: '2025-10-01T01:00:00Z', cardinality: 'one' },
    { subject: 'me', predicate: 'job_title', object: LONG, fact: `I work as the ${LONG}, reporting to the regional director for the whole of western Japan since last autumn.`, reference_time: '2025-11-01T01:00:00Z', cardinality: 'one' },
    ...['green tea', 'coffee', 'miso soup', 'okonomiyaki'].map((object) => ({ subject: 'me', predicate: 'likes', object, fact: `I like ${object}.`, reference_time: '2026-01-02T01:00:00Z', cardinality: 'many' as const })),
    { subject: 'Kenji Sato', predicate: 'lives_in', object: 'Osaka', fact: 'Kenji Sato lives in Osaka.', reference_time: '2026-03-01T01:00:00Z', cardinality: 'one' },
  ]);
  for (const title of ['Moving to Tokyo', 'Planning the autumn trip to Hokkaido with the whole family', 'Work']) engine.memory.conversations.create(title);
}

/** Elements inside `container` that stick out of it sideways, or that scroll sideways themselves. */
async function overflowing(page: Page, container: string): Promise<string[]> {
  return page.locator(container).evaluateAll((boxes) =>
    boxes.flatMap((box) => {
      const outer = box.getBoundingClientRect();
      const out: string[] = [];
      if (box.scrollWidth > box.clientWidth + 1) out.push(`${box.className}: scrolls sideways (${box.scrollWidth} > ${box.clientWidth})`);
      for (const el of box.querySelectorAll<HTMLElement>('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        // What a closed disclosure holds is not shown (Chromium still lays it out).
        const closed = el.closest('details:not([open])');
        if (closed && !el.closest('summary') && el !== closed) continue;
        // Visually hidden labels (1 px, clipped) are for screen readers, not the layout.
        if (r.width <= 1 && r.height <= 1) continue;
        if (r.left < outer.left - 1 || r.right > outer.right + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} in ${box.className}: ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(outer.left)}–${Math.round(outer.right)}`);
      }
      return out;
    }),
  );
}

async function atWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 760 });
  await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
}

describe.skipIf(CHROMIUM_MISSING !== null)('layouts from 700 px, Settings, errors in words', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'narrow' });

  for (const width of WIDTHS) {
    it(`at ${width} px the nav folds to icons that keep their names and tooltips`, async () => {
      const { page } = ui();
      await atWidth(page, width);
      await go(page, '#/facts');
      const nav = page.locator('nav[aria-label="Main"]');
      await expect.poll(async () => (await nav.boundingBox())?.width).toBeLessThan(72);
      for (const name of NAV) {
        const link = nav.getByRole('link', { name, exact: true });
        expect(await link.isVisible(), name).toBe(true);
        expect(await link.getAttribute('title'), name).toMatch(new RegExp(`^${name} \\(Alt\\+\\d\\)$`));
        // The icon is what shows; the label is there for screen readers only.
        const label = (await link.locator('.nav-label').boundingBox())!;
        expect(label.width * label.height, name).toBeLessThanOrEqual(1);
        expect(await link.locator('svg').isVisible(), name).toBe(true);
      }
      expect(await nav.getByRole('link', { name: 'Facts', exact: true }).getAttribute('aria-current')).toBe('page');
    });

    it(`at ${width} px the conversation list is a drawer: the keyboard opens it, Escape closes it, the focus follows`, async () => {
      const { page } = ui();
      await atWidth(page, width);
      await go(page, '#/chat');
      const toggle = page.getByRole('button', { name: 'Conversations' });
      const drawer = page.getByRole('complementary', { name: 'Conversations' });
      await toggle.waitFor();
      expect(await drawer.isVisible()).toBe(false);
      // The conversation takes the width the list gave up.
      const column = (await page.locator('.chat-main').boundingBox())!;
      expect(column.width).toBeGreaterThan(width - 56 - 60);

      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      expect(await overflowing(page, '.conversations')).toEqual([]);
      await screenshot(page, `narrow-${width}-chat-drawer`);

      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.isVisible()).toBe(false);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);

      // Tabbing past its end closes it: the page behind is not worked on through a drawer left open.
      await page.keyboard.press('Enter');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      await drawer.getByRole('button').last().focus();
      await page.keyboard.press('Tab');
      await expect.poll(() => drawer.isVisible()).toBe(false);
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      // A click beside it closes it as well (it covers the button while open).
      await toggle.click();
      await expect.poll(() => drawer.isVisible()).toBe(true);
      await page.locator('.drawer-backdrop').click({ position: { x: width - 200, y: 300 } });
      await expect.poll(() => drawer.isVisible()).toBe(false);
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);

      // Picking a conversation closes it and opens that conversation.
      await page.keyboard.press('Enter');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      const trip = drawer.getByRole('link', { name: /Planning the autumn trip/ });
      await trip.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.chat-header h1').textContent()).toBe('Planning the autumn trip to Hokkaido with the whole family');
      await expect.poll(() => drawer.isVisible()).toBe(false);
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await overflowing(page, '.chat-header')).toEqual([]);
      await screenshot(page, `narrow-${width}-chat`);
    });

    it(`at ${width} px Facts rows wrap inside the row, and the toolbars fit`, async () => {
      const { page } = ui();
      await atWidth(page, width);
      await go(page, '#/facts');
      await page.locator('.fact-row').first().waitFor();
      await expect.poll(() => page.locator('.fact-row').count()).toBe(7);
      expect(await overflowing(page, '.vl-row')).toEqual([]);
      // The long fact is all there, over more lines, not cut at the row's edge.
      const long = page.locator('.vl-row', { hasText: 'regional director' });
      const text = long.locator('.fact-row-text');
      expect(await text.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      expect((await long.boundingBox())!.height).toBeGreaterThan(64);
      expect(await overflowing(page, '.facts-toolbar')).toEqual([]);
      expect(await overflowing(page, '.screen')).toEqual([]);
      await screenshot(page, `narrow-${width}-facts`);

      // The long fact's own page, its edit form open.
      await long.click();
      await page.locator('.fact-page h1').waitFor();
      await page.getByRole('button', { name: 'Edit' }).click();
      expect(await overflowing(page, '.fact-page')).toEqual([]);
      expect(await page.locator('.screen').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await screenshot(page, `narrow-${width}-fact-page`);

      await go(page, '#/timeline');
      await page.locator('.tl-toolbar').waitFor();
      expect(await overflowing(page, '.tl-toolbar')).toEqual([]);
      // At most two lines of controls.
      expect((await page.locator('.tl-toolbar').boundingBox())!.height).toBeLessThan(96);
      // The legend opens inside the window, wherever its button wrapped to.
      await page.getByTestId('timeline-legend').locator('summary').click();
      const legend = (await page.locator('.tl-legend-list').boundingBox())!;
      expect(legend.x).toBeGreaterThanOrEqual(56);
      expect(legend.x + legend.width).toBeLessThanOrEqual(width);
      await screenshot(page, `narrow-${width}-timeline-legend`);
      await page.getByTestId('timeline-legend').locator('summary').click();
      await screenshot(page, `narrow-${width}-timeline`);
    });

    it(`at ${width} px the Export / Import and Models cards hold their inputs`, async () => {
      const { page } = ui();
      await atWidth(page, width);
      await go(page, '#/data');
      await page.getByLabel('Memory file (.json)').waitFor();
      expect(await overflowing(page, '.data-grid > .card')).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, `narrow-${width}-data`);

      await go(page, '#/models');
      await page.locator('.models-screen h1').waitFor();
      await expect.poll(() => page.locator('.catalogue-list > *').count()).toBeGreaterThan(0);
      expect(await overflowing(page, '.models-screen .card')).toEqual([]);
      expect(await page.locator('.screen').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await screenshot(page, `narrow-${width}-models`);
    });
  }

  it('Settings is in the nav; every "(change)" link lands there; Models keeps only models', async () => {
    const { page } = ui();
    await atWidth(page, 900);
    for (const screen of ['#/facts', '#/timeline']) {
      await go(page, screen);
      const change = page.locator('.zone-note').getByRole('link', { name: 'change' });
      await change.click();
      await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/settings');
      await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Settings');
    }
    expect(await page.getByTestId('time-zone-current').textContent()).toBe('Times are shown and read in Asia/Tokyo, from the TEMPORA_TZ environment variable.');
    expect(await page.getByRole('heading', { name: 'Learning queue' }).isVisible()).toBe(true);
    expect(await page.getByTestId('review-enabled').isVisible()).toBe(true);
    expect(await page.getByTestId('data-dir').textContent()).toBe(resolve(ui().dir, 'data'));
    // In the browser tempora serve serves MCP itself: a note saying where, not an error, and no call name.
    const mcp = page.locator('.mcp-setting');
    await expect.poll(() => mcp.getByTestId('mcp-note').textContent()).toMatch(/tempora serve itself lets other local agents use this memory over MCP \(Streamable HTTP\) at http:\/\/[^ ]+\/mcp/);
    expect(await mcp.locator('.error-text, [role="alert"]').count()).toBe(0);
    expect(await page.locator('main').textContent()).not.toMatch(/mcpStatus|setMcpEnabled/);
    expect(await overflowing(page, '.settings-grid > .card')).toEqual([]);
    await screenshot(page, 'narrow-900-settings');
    await atWidth(page, 700);
    expect(await overflowing(page, '.settings-grid > .card')).toEqual([]);
    await screenshot(page, 'narrow-700-settings');

    await page.locator('nav[aria-label="Main"]').getByRole('link', { name: 'Models', exact: true }).click();
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Models');
    expect(await page.locator('main').textContent()).not.toMatch(/Time zone|Learning queue|MCP/);
    await page.keyboard.press('Alt+9');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/settings');
  });

  it('a bad import file is one sentence, with the schema’s words behind a disclosure', async () => {
    const { page } = ui();
    await atWidth(page, 700);
    await go(page, '#/data');
    const bad = ui().engine.memory.transfer.export() as unknown as { facts: Record<string, unknown>[] };
    for (const fact of bad.facts) fact.valid_at = 'last tuesday';
    const file = join(ui().dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    await page.getByLabel('Memory file (.json)').setInputFiles(file);
    const panel = page.getByRole('region', { name: 'Import', exact: true });
    const alert = panel.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    const sentence = (await alert.textContent()) ?? '';
    expect(sentence).toBe('bad.json cannot be imported: not a valid Tempora export; the details say what is wrong.');
    const details = panel.locator('.error-text details');
    expect(await details.evaluate((el: HTMLDetailsElement) => el.open)).toBe(false);
    expect(await details.locator('pre').isVisible()).toBe(false);
    await details.getByText('Details').click();
    await expect.poll(() => details.locator('pre').isVisible()).toBe(true);
    const lines = ((await details.locator('pre').textContent()) ?? '').split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(bad.facts.length);
    expect(lines[0]).toMatch(/^facts\.0\.valid_at: /);
    expect(await overflowing(page, '.data-grid > .card')).toEqual([]);
    await screenshot(page, 'narrow-700-import-error');
  });
});

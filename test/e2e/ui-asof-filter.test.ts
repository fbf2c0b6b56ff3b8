/**
 * The as-of panel with a timeline filter that matches few of the many facts true at the cursor:
 * the filter is applied in the page, so the list stays shorter than its viewport and its end is
 * always in view. The panel must still ask for a bounded number of pages once the cursor rests
 * (the first and AUTO_PAGES more), offer Show more for the rest, say in words how many of the
 * facts true at the cursor match, and on memoryChanged ask again only for the pages it has.
 * Without a filter, scrolling to the end still loads the next page, as it does on the Facts list
 * (the other list that loads as it scrolls). The calls are read from the WebSocket frames the page
 * sends; two frames after a state is reached, nothing more has been asked. Last, the count's one
 * sentence in each state — none true, every one loaded with a filter's matches, one fact, a moment
 * to come, known at a past time — and pictures of it at 1400 and 900 px, light and dark.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, WebSocket } from 'playwright-core';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

/** Facts, one an hour: ten pages of the panel's hundred true now. */
const FACTS = 1_000;
/** Every EVERY-th fact is in Harbour (the filter's match): four in each page of a hundred. */
const EVERY = 25;
const HOUR = 3_600_000;
const FIRST = Date.parse('2026-01-01T00:00:00Z');
/** 34 days after the first fact: 817 facts true (the first 817), the matches among them as everywhere. */
const CURSOR = '2026-02-04T00:00:00.000Z';

function seed(engine: TemporaEngine): void {
  // One subject each (the timeline's groups start collapsed) and one hour apart, so the pages,
  // oldest first, hold the matches evenly.
  engine.memory.facts.observe(
    Array.from({ length: FACTS }, (_, i) => {
      const town = i % EVERY === 0 ? 'Harbour' : `Town ${i}`;
      return {
        subject: `Person ${String(i).padStart(4, '0')}`,
        predicate: 'lives_in',
        object: town,
        fact: `Person ${i} lives in ${town}.`,
        reference_time: new Date(FIRST + i * HOUR).toISOString(),
        cardinality: 'one' as const,
      };
    }),
  );
}

/** Two frames of the page: what a render started has sent by then. */
const frames = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

describe.skipIf(CHROMIUM_MISSING !== null)('the as-of panel with a filter that hides most answers', () => {
  const sent: { name: string; request: Record<string, unknown> }[] = [];

  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'asof-filter' });

  beforeAll(async () => {
    ui().page.on('websocket', (ws: WebSocket) => {
      ws.on('framesent', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { type?: string; name?: string; request?: Record<string, unknown> };
        if (message.type === 'call' && message.name) sent.push({ name: message.name, request: message.request ?? {} });
      });
    });
    // A fresh load, so the page's connection is the one watched.
    await ui().page.reload();
    await ui().page.locator('nav[aria-label="Main"]').waitFor();
  });

  /** The offsets of the as-of pages asked for at `asOf`, in order. */
  const offsetsAt = (asOf: string, from = 0) => sent.slice(from).filter((c) => c.name === 'listFacts' && c.request.asOf === asOf).map((c) => c.request.offset);

  it('asks for the first page and three more once the cursor rests, says how many match, and Show more asks for one more', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const count = page.getByTestId('asof-count');
    // No filter: a list longer than the panel, one page.
    await expect.poll(() => count.textContent()).toBe('1,000 facts are true now · showing the first 100');
    await page.getByPlaceholder('Filter rows (subject, predicate, value)').fill('harbour');
    await page.getByRole('textbox', { name: /^As of/ }).fill('2026-02-04 00:00');
    await page.getByRole('textbox', { name: /^As of/ }).press('Enter');
    await expect.poll(() => page.locator('#asof-title time').getAttribute('datetime')).toBe(CURSOR);
    // Resting at the cursor: the first page and AUTO_PAGES more by themselves, then Show more.
    const more = page.getByRole('button', { name: 'Show 100 more' });
    await expect.poll(() => count.textContent()).toBe('817 facts were true then · 16 of the first 400 match “harbour”');
    await expect.poll(() => more.getAttribute('aria-busy')).toBe('false');
    await frames(page);
    expect(offsetsAt(CURSOR)).toEqual([0, 100, 200, 300]);
    expect(await page.getByTestId('asof-answer').count()).toBe(16);
    expect(await count.textContent()).toBe('817 facts were true then · 16 of the first 400 match “harbour”');
    // The button answers to the keyboard, a page a press.
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => count.textContent()).toBe('817 facts were true then · 20 of the first 500 match “harbour”');
    await expect.poll(() => more.getAttribute('aria-busy')).toBe('false');
    await frames(page);
    expect(offsetsAt(CURSOR)).toEqual([0, 100, 200, 300, 400]);
  });

  it('asks again on memoryChanged only for the pages it has', async () => {
    const { page } = ui();
    const count = page.getByTestId('asof-count');
    const before = sent.length;
    // A fact true at the cursor that the filter does not match: the count grows, the answers do not.
    ui().engine.memory.facts.observe([{ subject: 'Newcomer', predicate: 'lives_in', object: 'Inland', fact: 'Newcomer lives in Inland.', reference_time: '2026-01-15T00:00:00Z', cardinality: 'one' }]);
    await expect.poll(() => count.textContent()).toBe('818 facts were true then · 20 of the first 500 match “harbour”');
    await expect.poll(() => page.getByRole('button', { name: 'Show 100 more' }).getAttribute('aria-busy')).toBe('false');
    await frames(page);
    expect(offsetsAt(CURSOR, before)).toEqual([0, 100, 200, 300, 400]);
  });

  it('without the filter, scrolling the list to its end asks for the next page, once', async () => {
    const { page } = ui();
    const count = page.getByTestId('asof-count');
    await page.getByPlaceholder('Filter rows (subject, predicate, value)').fill('');
    await expect.poll(() => count.textContent()).toBe('818 facts were true then · showing the first 500');
    await frames(page);
    const before = sent.length;
    expect(offsetsAt(CURSOR, before)).toEqual([]);
    await page.locator('.asof-panel .virtual-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => count.textContent()).toBe('818 facts were true then · showing the first 600');
    await frames(page);
    expect(offsetsAt(CURSOR, before)).toEqual([500]);
  });

  it('the Facts list still asks for its next page as it scrolls to its end, once', async () => {
    const { page } = ui();
    const before = sent.length;
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^1,001 facts/);
    const pages = () => sent.slice(before).filter((c) => c.name === 'listFacts' && c.request.asOf === undefined).map((c) => c.request.offset);
    await expect.poll(pages).toEqual([0]);
    await page.locator('.fact-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(pages).toEqual([0, 200]);
    await expect.poll(() => page.locator('.fact-list').evaluate((el) => el.scrollHeight > 300 * 64)).toBe(true);
    await frames(page);
    expect(pages()).toEqual([0, 200]);
  });

  it('says in one sentence how many facts were true then, and how many it shows or match, whatever the moment', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const count = page.getByTestId('asof-count');
    const asOf = async (typed: string) => {
      await page.getByRole('textbox', { name: /^As of/ }).fill(typed);
      await page.getByRole('textbox', { name: /^As of/ }).press('Enter');
    };
    const filter = (text: string) => page.getByPlaceholder('Filter rows (subject, predicate, value)').fill(text);
    // Before the first fact.
    await asOf('2025-12-31 12:00');
    await expect.poll(() => count.textContent()).toBe('No facts were true then');
    // Six facts, every one loaded: how many of them match.
    await asOf('2026-01-01 05:30');
    await filter('harbour');
    await expect.poll(() => count.textContent()).toBe('6 facts were true then · 1 matches “harbour”');
    await filter('nowhere');
    await expect.poll(() => count.textContent()).toBe('6 facts were true then · none match “nowhere”');
    expect(await page.getByTestId('asof-answer').count()).toBe(0);
    // One fact.
    await asOf('2026-01-01 00:30');
    await filter('Harbour');
    await expect.poll(() => count.textContent()).toBe('1 fact was true then · it matches “Harbour”');
    await filter('');
    await expect.poll(() => count.textContent()).toBe('1 fact was true then');
    // A moment to come: what the memory holds then.
    await asOf('2030-01-01 00:00');
    await expect.poll(() => count.textContent()).toBe('1,001 facts will be true then · showing the first 100');
    // Known at a time before anything was stored: the panel says whose answer it is, above the count.
    const knownAt = page.getByLabel('Known at (UTC)');
    await knownAt.fill('2000-01-01 00:00');
    await knownAt.press('Enter');
    await expect.poll(() => count.textContent()).toBe('No facts will be true then');
    expect(await page.locator('.asof-panel p').first().textContent()).toBe('As the memory held it at Jan 1, 2000.');
    await screenshot(page, 'asof-count-known-at');
    await page.getByRole('button', { name: 'Known now' }).click();
    // Paged with a filter, as the user sees it, wide and narrow, light and dark.
    // A day before the cursor of the tests above: a list of its own, its first page and three more.
    await asOf('2026-02-03 00:00');
    await filter('harbour');
    await expect.poll(() => count.textContent()).toBe('794 facts were true then · 16 of the first 400 match “harbour”');
    for (const width of [1400, 900]) {
      await page.setViewportSize({ width, height: 800 });
      // Narrow, the panel folds to a button (once the screen has measured its new width).
      if (width === 900) await page.getByRole('button', { name: '◂ As-of answers' }).click();
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => count.isVisible()).toBe(true);
        await screenshot(page, `asof-count-${width}-${theme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

/**
 * A search of what is true now that only another time matches, in Chromium over the bridge (real
 * engine, Asia/Tokyo): the Facts list says facts that were true before (an ended one, a manager
 * closed) or will be true later (a plan next year) do, and its button switches to History, by
 * keyboard too — as `tempora search` and MCP say it (electron/engine/search-not-now.ts). A word
 * nothing matches, or a search with an as-of, says only "Nothing matches.".
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { isoFromMs } from '../../shared/time';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const year = new Date().getUTCFullYear();

function seed(engine: TemporaEngine): void {
  const facts = engine.memory.facts;
  facts.observe(
    [
      { subject: 'me', predicate: 'lives_in', object: '大阪', fact: '私は大阪に住んでいた。', reference_time: '2024-03-01T10:00:00+09:00', valid_at: '2020-04-01T00:00:00+09:00', invalid_at: '2024-03-01T00:00:00+09:00' },
      { subject: 'me', predicate: 'plans', object: 'Berlin', fact: 'I go to a conference in Berlin.', reference_time: `${year}-01-20T10:00:00+09:00`, valid_at: `${year + 1}-02-10`, invalid_at: `${year + 1}-02-14` },
      { subject: 'me', predicate: 'likes', object: 'coffee', object_type: 'literal', fact: 'I like coffee.', reference_time: '2025-09-02T09:00:00+09:00' },
      { subject: 'me', predicate: 'manager', object: 'Mei Suzuki', fact: 'My manager at Hoshi Labs is Mei Suzuki.', reference_time: '2025-04-02T10:00:00+09:00', cardinality: 'one' },
    ],
    { where: 'not-now test' },
  );
  // The manager closed a week ago: true before, not now.
  const mei = facts.list().find((f) => f.object === 'Mei Suzuki')!;
  facts.close(mei.id, isoFromMs(Date.now() - 7 * 86_400_000));
}

describe.skipIf(CHROMIUM_MISSING !== null)('Facts: a search that only another time matches says so, with a way to History', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'not-now' });

  const search = async (words: string) => {
    const { page } = ui();
    await page.locator('input[type="search"]').fill(words);
    await page.locator('input[type="search"]').press('Enter');
  };
  const empty = () => ui().page.locator('.facts-screen .empty');

  it('a fact that was true before: said, and Show History (by keyboard) lists it', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toBe('1 fact');
    await search('Mei');
    await expect.poll(() => empty().textContent()).toBe('Nothing true now matches “Mei”. 1 fact that was true before does. Show History');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^0 facts/);
    await screenshot(page, 'facts-not-now-before');
    const show = empty().getByRole('button', { name: 'Show History' });
    await show.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.fact-row .fact-row-text').allTextContents()).toEqual(['My manager at Hoshi Labs is Mei Suzuki.']);
    expect(await page.locator('input[name="fact-mode"][value="history"]').isChecked()).toBe(true);
    // The focus stays on the screen's controls, on the view it switched to, not lost to the page.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('history');
    await page.locator('input[name="fact-mode"][value="current"]').check();
  });

  it('a plan still to come: will be true later; both kinds at once, each said', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await search('Berlin');
    await expect.poll(() => empty().textContent()).toBe('Nothing true now matches “Berlin”. 1 fact that will be true later does. Show History');
    await search('Berlin 大阪');
    await expect.poll(() => empty().textContent()).toBe('Nothing true now matches “Berlin 大阪”. 1 fact that was true before and 1 that will be true later do. Show History');
    await screenshot(page, 'facts-not-now-both');
  });

  it('a word nothing matches, or a search as of a moment, says only "Nothing matches."', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await search('zebra');
    await expect.poll(() => empty().textContent()).toBe('Nothing matches.');
    // As of a moment the user chose: no hint (as the command line with --as-of).
    await search('Mei');
    await expect.poll(() => empty().textContent()).toContain('Nothing true now matches');
    const asOf = page.getByRole('textbox', { name: /^As of/ });
    await asOf.fill('2020-01-01');
    await asOf.press('Enter');
    await expect.poll(() => page.locator('.facts-screen header p').textContent()).toContain('as of');
    await expect.poll(() => empty().textContent()).toBe('Nothing matches.');
    expect(await empty().getByRole('button').count()).toBe(0);
  });
});

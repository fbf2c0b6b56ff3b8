/**
 * The screens say a fact's predicate in words (shared/predicate-words.ts): "me · lives in", not
 * "me · lives_in" — the timeline's row labels, their titles and the rows' aria-labels, the as-of
 * panel, the Facts list, a fact's page and its slot's history — while the rows' data-row attribute,
 * the row's name for tests and tools, keeps the name as stored. What a user reads, typed into a
 * filter, finds the fact: the timeline's row filter and the Facts screen's predicate field, "lives
 * in" as "lives_in" does. Pictures of the timeline and the Facts list at 1280 and 900 px.
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

function seed(engine: TemporaEngine): void {
  const say = (subject: string, predicate: string, object: string, fact: string, day: string, cardinality: 'one' | 'many' = 'one') =>
    engine.memory.facts.observe([{ subject, predicate, object, fact, reference_time: `2026-${day}T09:00:00Z`, cardinality }]);
  say('me', 'lives_in', 'Lima', 'I live in Lima.', '02-01');
  say('me', 'lives_in', 'Quito', 'I moved to Quito.', '07-01');
  say('me', 'works_at', 'Acme', 'I work at Acme.', '03-01');
  say('me', 'has_manager', 'Aoki', 'My manager is Aoki.', '04-01');
  say('me', '好き_な_食べ物', '寿司', '好きな食べ物は寿司です。', '05-01', 'many');
  say('Mia', 'lives_in', 'Lima', 'Mia lives in Lima.', '03-15');
  say('Mia', 'has_manager', 'Bo', "Mia's manager is Bo.", '04-15');
  say('Mia', 'likes', 'tea', 'Mia likes tea.', '06-01', 'many');
}

describe.skipIf(CHROMIUM_MISSING !== null)('a predicate in words', () => {
  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'predicate-words' });

  const shownRows = () => ui().page.locator('.tl-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')).sort());

  it('the timeline says each row’s predicate in words; data-row keeps the name as stored', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const lives = page.locator('.tl-row[data-row="me · lives_in"]');
    await expect.poll(() => lives.locator('.tl-predicate').textContent()).toBe('lives in');
    expect(await lives.locator('.tl-label').getAttribute('title')).toBe('me · lives in');
    expect(await lives.locator('svg.tl-row-svg').getAttribute('aria-label')).toBe('me lives in');
    expect(await page.locator('.tl-row[data-row="Mia · has_manager"] .tl-predicate').textContent()).toBe('has manager');
    expect(await page.locator('.tl-row[data-row="me · 好き_な_食べ物"] .tl-predicate').textContent()).toBe('好き な 食べ物');
    // No label, title or row name read by a person holds the stored name's underscore.
    const read = await page.locator('.tl-label, .tl-row-svg').evaluateAll((els) => els.map((el) => `${el.textContent ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('aria-label') ?? ''}`));
    expect(read.length).toBeGreaterThan(6);
    expect(read.filter((text) => text.includes('_'))).toEqual([]);
    // The as-of panel asks its questions in words too.
    await expect.poll(() => page.locator('.asof-question').allTextContents()).toContain('me · lives in');
    expect((await page.locator('.asof-question').allTextContents()).filter((text) => text.includes('_'))).toEqual([]);
    await screenshot(page, 'predicate-words-timeline');
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(() => lives.locator('.tl-predicate').isVisible()).toBe(true);
    expect(await lives.locator('.tl-predicate').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'predicate-words-timeline-900');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('the timeline’s row filter finds a row by its predicate in words or as stored', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const filter = page.getByPlaceholder('Filter rows (subject, predicate, value)');
    for (const typed of ['lives in', 'lives_in', 'LIVES IN']) {
      // Emptied first, so the rows shown are this spelling's, not the one before's.
      await filter.fill('');
      await expect.poll(async () => (await shownRows()).length).toBe(7);
      await filter.fill(typed);
      await expect.poll(shownRows, { message: typed }).toEqual(['Mia · lives_in', 'me · lives_in']);
    }
    await filter.fill('has manager');
    await expect.poll(shownRows).toEqual(['Mia · has_manager', 'me · has_manager']);
    await filter.fill('好き な');
    await expect.poll(shownRows).toEqual(['me · 好き_な_食べ物']);
    // The as-of panel lists what the filter keeps.
    await filter.fill('lives in');
    await expect.poll(() => page.locator('.asof-question').allTextContents()).toEqual(['me · lives in', 'Mia · lives in']);
    await screenshot(page, 'predicate-words-timeline-filtered');
    await filter.fill('');
    await expect.poll(async () => (await shownRows()).length).toBe(7);
  });

  it('the Facts list says the predicate in words, and its predicate field finds it so or as stored', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^7 facts/);
    const triples = () => page.locator('.fact-row .triple').allTextContents();
    expect(await triples()).toEqual(expect.arrayContaining(['me · lives in · Quito', 'Mia · has manager · Bo', 'me · 好き な 食べ物 · 寿司']));
    expect((await triples()).filter((text) => text.includes('_'))).toEqual([]);
    await screenshot(page, 'predicate-words-facts');
    await page.setViewportSize({ width: 900, height: 800 });
    await screenshot(page, 'predicate-words-facts-900');
    await page.setViewportSize({ width: 1280, height: 800 });
    const field = page.locator('.facts-screen input[list="predicate-names"]');
    for (const typed of ['lives in', 'lives_in', 'Lives In']) {
      await field.fill('');
      await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^7 facts/);
      await field.fill(typed);
      await expect.poll(() => page.locator('.result-count').textContent(), { message: typed }).toMatch(/^2 facts/);
      expect((await triples()).sort(), typed).toEqual(['Mia · lives in · Lima', 'me · lives in · Quito']);
    }
    await field.fill('好き な 食べ物');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^1 fact\b/);
    await field.fill('');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^7 facts/);
  });

  it('a fact’s page and its slot’s history say the predicate in words', async () => {
    const { page } = ui();
    const quito = ui().engine.memory.facts.list({ predicate: 'lives_in', subject: 'me' })[0]!;
    await go(page, `#/facts/${encodeURIComponent(quito.id)}`);
    await expect.poll(() => page.locator('.fact-page .triple-line').textContent()).toBe('me · lives in · Quito');
    await expect.poll(() => page.locator('#slot-history-title').textContent()).toBe('History of me · lives in (2 values)');
  });
});

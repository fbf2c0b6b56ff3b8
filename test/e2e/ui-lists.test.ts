/**
 * Lists read right (issue #25): in Chromium over the bridge, the Facts list shows the newest first
 * (current and history alike), a fact whose object is its sentence prints that sentence once, a
 * search shows no scores, and every count is written as the user's locale writes it ("1,203 facts",
 * in an en-US browser). The as-of panel lists the newest first and counts the same way.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ObservationInput } from '../../shared/observation-schema';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const DAY = 86_400_000;
const NOTE = 'Sam keeps bees on the roof of the old school.';
/** 1,200 books over 1,200 days, a note kept whole (its object is the sentence), and a manager that changed. */
function observations(): ObservationInput[] {
  const start = Date.parse('2023-01-01T03:00:00Z');
  const out: ObservationInput[] = [];
  for (let i = 0; i < 1_200; i++) out.push({ subject: 'Sam', predicate: 'read', object: `book ${i}`, fact: `Sam read book ${i}.`, reference_time: new Date(start + i * DAY).toISOString() });
  out.push({ subject: 'Sam', predicate: 'note', object: NOTE, object_type: 'literal', fact: NOTE, reference_time: '2026-06-01T10:00:00Z' });
  out.push({ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' });
  out.push({ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' });
  return out;
}

/** The view at 1280 and 900 px, light and dark, each to a screenshot; back to 1280 light. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 900]) {
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `${name}-${width}-${theme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Every axe violation on the page, as "impact: rule" lines. */
async function violations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).setLegacyMode(true).analyze()).violations.map((v) => `${v.impact}: ${v.id}`);
}

describe.skipIf(CHROMIUM_MISSING !== null)('lists: newest first, each sentence once, no scores, counts in the locale', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', engine: { startWorker: false }, seed: (engine) => void engine.memory.facts.observe(observations(), { where: 'lists test' }), shotPrefix: 'lists' });

  it('Facts: the current ones newest first, counted with a thousands separator; a note’s sentence once', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toBe('1,202 facts');
    const texts = () => page.locator('.fact-row .fact-row-text').allTextContents();
    await expect.poll(async () => (await texts()).slice(0, 3)).toEqual(['My manager changed to B.', NOTE, 'Sam read book 1199.']);
    const note = page.locator('.fact-row', { hasText: NOTE });
    expect(((await note.textContent()) ?? '').split(NOTE)).toHaveLength(2);
    expect(await note.locator('.triple').textContent()).toBe('Sam · note');
  });

  it('Facts history: every version, the newest first', async () => {
    const { page } = ui();
    await page.getByText('History', { exact: true }).click();
    // A's closing wrote a version of it: one more than the current facts and A.
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^1,20\d facts$/);
    // The Current list's count matches that too: the History list is the one that holds A.
    await expect.poll(() => page.locator('.fact-row .fact-row-text').allTextContents()).toContain('My manager is A.');
    const texts = await page.locator('.fact-row .fact-row-text').allTextContents();
    expect(texts[0]).toBe('My manager changed to B.');
    expect(texts.indexOf('My manager is A.')).toBeLessThan(texts.indexOf(NOTE));
    await page.getByText('Current', { exact: true }).click();
  });

  it('a search shows its best matches without scores', async () => {
    const { page } = ui();
    await page.getByPlaceholder(/Search facts/).fill('bees');
    await page.getByPlaceholder(/Search facts/).press('Enter');
    await expect.poll(() => page.locator('.fact-row .fact-row-text').first().textContent()).toBe(NOTE);
    expect(await page.locator('.fact-list').textContent()).not.toMatch(/score/i);
    // Fewer than the search's limit: how many matched.
    expect(await page.locator('.result-count').textContent()).toMatch(/^1 fact( · |$)/);
    await page.getByPlaceholder(/Search facts/).fill('');
  });

  it('a search that reaches its limit says it shows the first matches, not that they are all', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await page.getByPlaceholder(/Search facts/).fill('Sam read');
    await page.getByPlaceholder(/Search facts/).press('Enter');
    const count = page.locator('.result-count');
    await expect.poll(() => count.textContent()).toMatch(/^The first 200 facts that match; narrow the search to see others( · |$)/);
    expect(await count.textContent()).not.toMatch(/^200 facts/);
    await shoot(page, 'lists-search-limit');
    expect(await violations(page)).toEqual([]);
    await page.getByPlaceholder(/Search facts/).fill('');
  });

  it('a fact’s page prints a note’s sentence once', async () => {
    const { page } = ui();
    const note = ui().engine.memory.facts.list({ predicate: 'note' })[0]!;
    await go(page, `#/facts/${encodeURIComponent(note.id)}`);
    await expect.poll(() => page.locator('.fact-header h1').textContent()).toBe(NOTE);
    expect(await page.locator('.fact-header .triple-line').textContent()).toBe('Sam · note');
  });

  it('the as-of panel: the newest first, its count in the locale', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    // Every fact true now is listed (the chart's rows hold them all): no "showing the first", no Show more.
    await expect.poll(() => page.getByTestId('asof-count').textContent()).toBe('1,202 facts are true now');
    expect(await page.getByRole('button', { name: /^Show [\d,]+ more$/ }).count()).toBe(0);
    const first = page.getByTestId('asof-answer').first();
    await expect.poll(() => first.locator('.asof-question').textContent()).toBe('me · manager');
    expect(await first.locator('.asof-values').textContent()).toBe('B');
  });
});

/** Twelve facts, each with its end: none is true now. */
function allClosed(): ObservationInput[] {
  return Array.from({ length: 12 }, (_, i) => ({
    subject: 'me',
    predicate: 'visited',
    object: `Town ${i + 1}`,
    fact: `I visited Town ${i + 1}.`,
    reference_time: `2025-0${1 + (i % 9)}-0${1 + (i % 8)}T03:00:00Z`,
    valid_at: `2025-0${1 + (i % 9)}-0${1 + (i % 8)}T00:00:00Z`,
    invalid_at: `2025-0${1 + (i % 9)}-0${2 + (i % 8)}T00:00:00Z`,
  }));
}

describe.skipIf(CHROMIUM_MISSING !== null)('Facts when none is true now', () => {
  const ui = useUi({ zone: 'Europe/Paris', env: { TZ: 'Europe/Paris' }, engine: { startWorker: false }, seed: (engine) => void engine.memory.facts.observe(allClosed(), { where: 'lists test' }), shotPrefix: 'lists-none-now' });

  it('says none is true now, how many History holds, and offers it', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    const empty = page.locator('.facts-screen .empty');
    await expect.poll(() => empty.textContent()).toBe('No facts are true now. History holds 12 facts, closed and replaced ones too. Show History');
    expect(await page.locator('.facts-screen').textContent()).not.toMatch(/No facts yet/);
    await shoot(page, 'lists-none-now');
    expect(await violations(page)).toEqual([]);
    await empty.getByRole('button', { name: 'Show History' }).click();
    await expect.poll(() => page.locator('.result-count').textContent()).toBe('12 facts');
    expect(await page.getByRole('radio', { name: 'History' }).isChecked()).toBe(true);
  });
});

/**
 * A screen's cost does not grow with the memory: the Facts screen loads no list of every entity
 * (it asked listEntities for all of them: 12.6 MB at 1M facts), its entity and predicate fields ask
 * suggestNames for a page of names as the user types, and the timeline's as-of panel asks for a
 * page of the facts true at the cursor with their count, and the next page on Show more. The calls
 * are read from the WebSocket frames the page sends and receives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'playwright-core';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

/** People beyond a page of names, each a subject of a fact held now (the first ones more talked about). */
const PEOPLE = 130;

function seed(engine: TemporaEngine): void {
  const facts = Array.from({ length: PEOPLE }, (_, i) => ({
    subject: `Person ${String(i).padStart(3, '0')}`,
    predicate: 'lives_in',
    object: `Town ${i}`,
    fact: `Person ${i} lives in Town ${i}.`,
    reference_time: '2026-09-01T00:00:00Z',
    cardinality: 'one' as const,
  }));
  engine.memory.facts.observe(facts);
  engine.memory.facts.observe([
    { subject: '佐藤', predicate: 'works_at', object: 'ACME', fact: '佐藤 works at ACME.', reference_time: '2026-09-02T00:00:00Z' },
    { subject: '佐藤健太', predicate: 'works_at', object: 'ACME', fact: '佐藤健太 works at ACME.', reference_time: '2026-09-02T00:00:00Z' },
    { subject: '佐藤健太', predicate: 'likes', object: 'tea', fact: '佐藤健太 likes tea.', reference_time: '2026-09-03T00:00:00Z' },
    { subject: '伊佐藤', predicate: 'likes', object: 'coffee', fact: '伊佐藤 likes coffee.', reference_time: '2026-09-03T00:00:00Z' },
  ]);
}

describe.skipIf(CHROMIUM_MISSING !== null)('screens ask for pages, never for every name or fact', () => {
  const sent: { name: string; request: Record<string, unknown>; id: number }[] = [];
  const received = new Map<number, string>();

  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'paged' });

  beforeAll(async () => {
    const watch = (ws: WebSocket) => {
      ws.on('framesent', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { type?: string; name?: string; id?: number; request?: Record<string, unknown> };
        if (message.type === 'call' && message.name) sent.push({ name: message.name, request: message.request ?? {}, id: message.id ?? -1 });
      });
      ws.on('framereceived', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { type?: string; id?: number };
        if (message.type === 'result' && typeof message.id === 'number') received.set(message.id, String(frame.payload));
      });
    };
    ui().page.on('websocket', watch);
    // A fresh load, so the page's connection is the one watched.
    await ui().page.reload();
    await ui().page.locator('nav[aria-label="Main"]').waitFor();
  });

  const options = (list: string) => ui().page.locator(`#${list} option`).evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));

  it('loads the Facts screen without the list of every entity, and asks for no names until a field is used', async () => {
    const { page } = ui();
    const before = sent.length;
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^134 facts/);
    const calls = sent.slice(before).map((c) => c.name);
    expect(calls).toContain('listFacts');
    expect(calls).not.toContain('listEntities');
    expect(calls).not.toContain('suggestNames');
    expect(await options('entity-names')).toEqual([]);
  });

  it('suggests entity names as the user types: those that begin with it first, most facts first, a page at most', async () => {
    const { page } = ui();
    const field = page.locator('.facts-screen input[list="entity-names"]');
    await field.click();
    // Nothing typed: the most talked-about names, at most 20.
    await expect.poll(() => options('entity-names'), { message: 'the most talked-about names on focus' }).toHaveLength(20);
    expect((await options('entity-names'))[0]).toBe('佐藤健太');
    await field.fill('佐藤');
    await expect.poll(() => options('entity-names'), { message: 'names for 佐藤' }).toEqual(['佐藤健太', '佐藤', '伊佐藤']);
    await field.fill('person 12');
    await expect.poll(() => options('entity-names'), { message: 'names for person 12' }).toEqual(Array.from({ length: 10 }, (_, i) => `Person 12${i}`));
    const asked = sent.filter((c) => c.name === 'suggestNames');
    expect(asked.every((c) => c.request.kind === 'entity' && typeof c.request.limit === 'number' && c.request.limit <= 20)).toBe(true);
    expect(asked.map((c) => c.request.text)).toContain('佐藤');
    // Debounced: not a call per key of "person 12".
    expect(asked.filter((c) => String(c.request.text).startsWith('person')).length).toBeLessThan('person 12'.length);
    // Every answer is a page: the largest is a few kilobytes whatever the memory holds.
    expect(Math.max(...asked.map((c) => received.get(c.id)?.length ?? 0))).toBeLessThan(2_000);
    // The filter itself still applies the name.
    await field.fill('佐藤健太');
    await expect.poll(() => page.locator('.result-count').textContent(), { message: 'the facts of 佐藤健太' }).toMatch(/^2 facts/);
  });

  it('suggests predicates in use as the user types, in words', async () => {
    const { page } = ui();
    const field = page.locator('.facts-screen input[list="predicate-names"]');
    await field.fill('i');
    await expect.poll(() => options('predicate-names')).toEqual(['lives in', 'likes']);
    await field.fill('work');
    await expect.poll(() => options('predicate-names')).toEqual(['works at']);
    expect(sent.some((c) => c.name === 'suggestNames' && c.request.kind === 'predicate' && c.request.text === 'work')).toBe(true);
  });

  it('asks for predicates with a trailing space kept, as the underscore it will be', async () => {
    const { page } = ui();
    const field = page.locator('.facts-screen input[list="predicate-names"]');
    const predicateTexts = () => sent.filter((c) => c.name === 'suggestNames' && c.request.kind === 'predicate').map((c) => c.request.text);
    // "like" is in likes; "like " asks for like_, which no predicate holds.
    await field.fill('like');
    await expect.poll(() => options('predicate-names')).toEqual(['likes']);
    await field.fill('  like ');
    await expect.poll(() => options('predicate-names'), { message: 'nothing for "like "' }).toEqual([]);
    expect(predicateTexts()).toContain('like ');
    await field.fill('lives ');
    await expect.poll(() => options('predicate-names')).toEqual(['lives in']);
    expect(predicateTexts()).toContain('lives ');
    // Spaces before the text are not sent, and only one after it.
    expect(predicateTexts().every((text) => !/^\s|\s\s$/u.test(String(text)))).toBe(true);
    await field.fill('');
  });

  it('asks the as-of panel for a page of what is true at the cursor, says how many in all, and Show more asks for the next', async () => {
    const { page } = ui();
    // The page's clock, so the minutes pass when the test says (the cursor follows it).
    await page.clock.install({ time: Date.now() });
    const before = sent.length;
    await go(page, '#/timeline');
    const count = page.getByTestId('asof-count');
    await expect.poll(() => count.textContent()).toBe('134 facts are true now · showing the first 100');
    const asOf = () => sent.slice(before).filter((c) => c.name === 'listFacts' && typeof c.request.asOf === 'string');
    expect(asOf().length).toBeGreaterThan(0);
    expect(asOf().every((c) => c.request.limit === 100 && c.request.offset === 0)).toBe(true);
    // The button answers to the keyboard.
    const more = page.getByRole('button', { name: 'Show 34 more' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => count.textContent()).toBe('134 facts are true now');
    expect(asOf().every((c) => c.request.limit === 100)).toBe(true);
    expect(asOf().filter((c) => c.request.offset === 100)).toHaveLength(1);
    expect(await page.getByRole('button', { name: /^Show \d+ more$/ }).count()).toBe(0);
    expect(sent.some((c) => c.name === 'listEntities')).toBe(false);

    // The cursor follows the clock: a minute on, the same list is asked again at the new moment,
    // every page loaded — Show more's page is not dropped for a fresh first page.
    const asked = asOf().length;
    const firstAt = Date.parse(String(asOf()[0]!.request.asOf));
    await page.clock.fastForward('02:00');
    await expect.poll(() => asOf().slice(asked).map((c) => c.request.offset)).toEqual([0, 100]);
    expect(asOf().slice(asked).every((c) => Date.parse(String(c.request.asOf)) >= firstAt + 60_000)).toBe(true);
    expect(await count.textContent()).toBe('134 facts are true now');
  });
});

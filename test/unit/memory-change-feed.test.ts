/**
 * "What changed" and a slot's history (temporal/change-feed.ts) on the real SQLite store: newest
 * valid time first, a one-valued slot's change as before → after, a many-valued slot's new value,
 * stated ends, late claims, ties and page boundaries, the entity filter.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ValueChange } from '../../shared/change-feed-contract';
import { MemoryInputError, openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);
type Line = { subject?: string; predicate: string; object: string; ref: string; valid?: string; end?: string; one?: boolean };

function observe(m: Memory, ...lines: Line[]): void {
  for (const l of lines) {
    m.facts.observe([
      {
        subject: l.subject ?? 'me',
        predicate: l.predicate,
        object: l.object,
        fact: `${l.subject ?? 'me'} ${l.predicate} ${l.object}${l.end ? ' (ended)' : ''}.`,
        reference_time: at(l.ref),
        ...(l.valid ? { valid_at: at(l.valid) } : {}),
        ...(l.end ? { invalid_at: at(l.end) } : {}),
        cardinality: l.one ? 'one' : 'many',
      },
    ]);
  }
}

/** "09-15 replaced me·manager A → B" lines, for readable expectations. */
const said = (c: ValueChange) => `${c.at.slice(5, 10)} ${c.kind} ${c.subject}·${c.predicate} ${c.before ?? '∅'} → ${c.after ?? '∅'}`;

/** Every change, page by page. */
function allPages(m: Memory, query: { entity?: string; limit: number }): { changes: ValueChange[]; pages: number } {
  const changes: ValueChange[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = m.facts.changeFeed({ ...query, cursor });
    expect(page.changes.length).toBeLessThanOrEqual(query.limit);
    changes.push(...page.changes);
    pages++;
    cursor = page.next ?? undefined;
  } while (cursor !== undefined && pages < 100);
  return { changes, pages };
}

describe('the change feed', () => {
  let m: Memory;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  });

  it('says a one-valued change as before → after, a new many-valued value as added, newest first, with its facts and message', () => {
    observe(m, { predicate: 'manager', object: 'Aiko Tanaka', ref: '03-01', one: true }, { predicate: 'likes', object: 'tea', ref: '04-01' }, { predicate: 'manager', object: 'Kenji Sato', ref: '10-01', one: true });
    const { changes, next } = m.facts.changeFeed();
    expect(changes.map(said)).toEqual(['10-01 replaced me·manager Aiko Tanaka → Kenji Sato', '04-01 added me·likes ∅ → tea', '03-01 added me·manager ∅ → Aiko Tanaka']);
    expect(next).toBeNull();
    const [kenji] = changes;
    const aiko = m.facts.list({ predicate: 'manager', history: true }).find((f) => f.object === 'Aiko Tanaka' && f.expired_at === null)!;
    const kenjiFact = m.facts.list({ predicate: 'manager' })[0]!;
    expect(kenji).toMatchObject({ factId: kenjiFact.id, beforeFactId: aiko.id, cardinality: 'one', precision: 'day' });
    expect(kenji!.episodeId).toBe(kenjiFact.episode_ids[0]);
    expect(m.episodes.byIds([kenji!.episodeId!])[0]!.conversation_id).toBe(kenji!.conversationId);
  });

  it('shows a stated end as ended, with the message that said it; a user close as ended with no message', () => {
    observe(m, { predicate: 'likes', object: 'tea', ref: '04-01' }, { predicate: 'likes', object: 'tea', ref: '06-10', valid: '04-01', end: '06-01' }, { predicate: 'plays', object: 'chess', ref: '05-01' });
    const chess = m.facts.list({ predicate: 'plays' })[0]!;
    m.facts.close(chess.id, at('07-01'), 'day');
    const { changes } = m.facts.changeFeed();
    expect(changes.map(said)).toEqual(['07-01 ended me·plays chess → ∅', '06-01 ended me·likes tea → ∅', '05-01 added me·plays ∅ → chess', '04-01 added me·likes ∅ → tea']);
    expect(changes[0]).toMatchObject({ precision: 'day', episodeId: null, conversationId: null });
    const ended = changes[1]!;
    expect(m.episodes.byIds([ended.episodeId!])[0]!.reference_time).toBe(at('06-10'));
    expect(changes[3]!.episodeId).not.toBe(ended.episodeId);
  });

  it('places late and out-of-order claims where they belong in valid time', () => {
    observe(
      m,
      { predicate: 'lives_in', object: 'Tokyo', ref: '10-01', valid: '09-01', one: true },
      { predicate: 'lives_in', object: 'Osaka', ref: '10-02', valid: '03-01', one: true },
      { predicate: 'lives_in', object: 'Kyoto', ref: '10-03', valid: '06-01', one: true },
    );
    expect(m.facts.changeFeed().changes.map(said)).toEqual(['09-01 replaced me·lives_in Kyoto → Tokyo', '06-01 replaced me·lives_in Osaka → Kyoto', '03-01 added me·lives_in ∅ → Osaka']);
  });

  it('pages through ties and boundaries: every change once, in one order, whatever the page size', () => {
    // Five starts and two stated ends at the same instant, around others.
    for (const s of ['P1', 'P2', 'P3', 'P4', 'P5']) observe(m, { subject: s, predicate: 'likes', object: 'tea', ref: '05-01' });
    observe(m, { subject: 'Q1', predicate: 'likes', object: 'jazz', ref: '04-01', end: '05-01' }, { subject: 'Q2', predicate: 'likes', object: 'rock', ref: '04-02', end: '05-01' });
    observe(m, { subject: 'P1', predicate: 'plays', object: 'go', ref: '06-01' }, { subject: 'P2', predicate: 'plays', object: 'go', ref: '03-01' });
    const whole = m.facts.changeFeed({ limit: 200 });
    expect(whole.next).toBeNull();
    expect(whole.changes).toHaveLength(11);
    const times = whole.changes.map((c) => c.at);
    expect(times).toEqual([...times].sort().reverse());
    // At one instant the starts come before the ends.
    expect(whole.changes.filter((c) => c.at === at('05-01')).map((c) => c.kind)).toEqual(['added', 'added', 'added', 'added', 'added', 'ended', 'ended']);
    for (const limit of [1, 2, 3, 5, 7, 10, 11, 12]) {
      const { changes, pages } = allPages(m, { limit });
      expect(changes.map((c) => `${c.kind}:${c.factId}`), `pages of ${limit}`).toEqual(whole.changes.map((c) => `${c.kind}:${c.factId}`));
      expect(pages, `pages of ${limit}`).toBe(Math.ceil(11 / limit));
    }
  });

  it('filters by entity (the facts about it), by name or alias; an unknown name has no changes', () => {
    observe(m, { predicate: 'manager', object: 'Aiko', ref: '03-01', one: true }, { subject: 'Aiko', predicate: 'likes', object: 'tea', ref: '04-01', end: '08-01' }, { predicate: 'manager', object: 'Kenji', ref: '05-01', one: true });
    expect(allPages(m, { entity: 'Aiko', limit: 1 }).changes.map(said)).toEqual(['08-01 ended Aiko·likes tea → ∅', '04-01 added Aiko·likes ∅ → tea']);
    expect(allPages(m, { entity: 'me', limit: 1 }).changes.map(said)).toEqual(['05-01 replaced me·manager Aiko → Kenji', '03-01 added me·manager ∅ → Aiko']);
    expect(m.facts.changeFeed({ entity: 'Nobody' })).toEqual({ changes: [], next: null });
  });

  it('refuses a cursor it did not give, in words naming the field', () => {
    expect(() => m.facts.changeFeed({ cursor: 'x' })).toThrow(MemoryInputError);
    expect(() => m.facts.changeFeed({ cursor: '2.1.2026-01-01T00:00:00Z' })).toThrow(/cursor/);
    // Its time is one this memory wrote, never text that reaches the SQL.
    observe(m, { predicate: 'likes', object: 'tea', ref: '04-01' });
    expect(() => m.facts.changeFeed({ cursor: "1.999999.2020-01-01T00:00:00Z' OR 1=1 --" })).toThrow(/cursor: not a cursor this memory gave/);
    expect(() => m.facts.changeFeed({ cursor: '1.999999.2020-01-01T00:00:00Z' })).toThrow(/cursor/);
    expect(() => m.facts.changeFeed({ cursor: '1.999999.2020-02-30T00:00:00.000Z' })).toThrow(/cursor/);
    expect(m.facts.changeFeed({ cursor: '1.999999.2020-01-01T00:00:00.000Z' }).changes).toHaveLength(0);
  });
});

describe("a slot's history", () => {
  it('lists every value the slot held, newest first, in pages, with the total', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    const months = ['01', '02', '03', '04', '05', '06', '07'];
    months.forEach((mm, i) => observe(m, { predicate: 'manager', object: `Boss ${i}`, ref: `${mm}-01`, one: true }));
    observe(m, { predicate: 'likes', object: 'tea', ref: '02-15' });
    const current = m.facts.list({ predicate: 'manager' })[0]!;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = m.facts.slotHistory(current.id, { limit: 3, cursor });
      expect(page).toMatchObject({ subject: 'me', predicate: 'manager', total: 7 });
      seen.push(...page.facts.map((f) => f.object));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['Boss 6', 'Boss 5', 'Boss 4', 'Boss 3', 'Boss 2', 'Boss 1', 'Boss 0']);
    // From an old version's page too: the slot is the same.
    const old = m.facts.list({ predicate: 'manager', history: true }).find((f) => f.expired_at !== null)!;
    expect(m.facts.slotHistory(old.id, { limit: 1 }).facts[0]!.object).toBe('Boss 6');
    expect(() => m.facts.slotHistory('fct_nope')).toThrow(/no fact/);
  });
});

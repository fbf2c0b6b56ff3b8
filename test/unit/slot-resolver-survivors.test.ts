/**
 * The slot resolver's last mutation survivors (issue 26's done-when), each pinned where a test can
 * tell the mutant apart; the ones no input can tell apart are listed with the reason in
 * docs/benchmarks.md ("The rest judged").
 */
import { describe, expect, it } from 'vitest';
import { storeOf } from '../../electron/memory/memory';
import type { NewClaim } from '../../electron/memory/temporal/slot-resolver';
import { day, fresh, live, liveOf } from '../fixtures/memory-reads';

const line = (object: string, d: string) => ({ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: day(d), cardinality: 'one' });

describe('slot resolver: a write that holds an edit reads the whole slot', () => {
  it('an edit batched with a new claim of the same slot still extends the fact the edited one used to close', () => {
    // kills slot-resolver.ts claimsToRead (newClaims.some((c) => c.replaces) → every): one claim that
    // replaces a fact is enough to read the whole slot — the fact before the edited one's old start
    // lies before any window the other claims would give. Today every edit is its own write
    // (fact-edit.ts); a write that batches one with other claims (a bulk edit) must hold too.
    const m = fresh();
    m.facts.observe([line('Z', '01'), line('A', '05'), line('B', '10')]);
    expect(liveOf(m, 'Z').invalid_at).toBe(day('05'));
    const ctx = storeOf(m);
    const a = ctx.rows.byId(liveOf(m, 'A').id)!;
    const base = { subjectId: a.subject_id, predicate: 'manager', objectId: null, cardinality: 'one' as const, validPrecision: 'day' as const, end: null };
    const edit: NewClaim = { ...base, objectLiteral: 'A', fact: 'My manager is A.', validAt: day('15'), referenceTime: a.reference_time, episodeIds: ctx.rows.episodesOf(a.id), origin: 'user_edit', replaces: a };
    const later: NewClaim = { ...base, objectLiteral: 'D', fact: 'My manager is D.', validAt: day('25'), referenceTime: day('25'), episodeIds: [], origin: 'observed' };
    ctx.db.transaction(() => {
      ctx.slots.begin();
      ctx.slots.add(edit);
      ctx.slots.add(later);
      ctx.slots.commit();
    })();
    const spans = live(m)
      .map((f) => [f.object, f.valid_at, f.invalid_at])
      .sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(spans).toEqual([
      ['Z', day('01'), day('10')],
      ['B', day('10'), day('15')],
      ['A', day('15'), day('25')],
      ['D', day('25'), null],
    ]);
  });
});

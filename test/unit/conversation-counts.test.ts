/**
 * The conversation list reads each conversation's message count and last message time from the
 * conversation itself (kept by triggers, migration 0018), not by reading every message: whatever
 * wrote the messages — appends, forgets, deleted messages, imports in bulk or into a store in use —
 * the count equals a count of the messages, and without a forget the time is when the last message was said (its reference_time, migration 0032).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import type { IsoTime } from '../../shared/time';

const fresh = (start: IsoTime = '2026-10-01T00:00:00.000Z') => openMemory({ dataDir: ':memory:', clock: steppingClock(start, 1000) });

/** The list as it was computed before: a join over every message. */
function counted(m: Memory) {
  return (
    databaseOf(m)
      .prepare(
        `SELECT c.id, COALESCE(MAX(e.reference_time), c.updated_at, c.created_at) AS updated_at, COUNT(e.id) AS message_count
         FROM conversations c LEFT JOIN episodes e ON e.conversation_id = c.id GROUP BY c.id ORDER BY c.id`,
      )
      .all() as { id: string; updated_at: string; message_count: number }[]
  );
}

const listed = (m: Memory) =>
  m
    .conversations.list()
    .map((c) => ({ id: c.id, updated_at: c.updated_at, message_count: c.message_count }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));

const step = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), conversation: fc.constantFrom('c1', 'c2', 'c3'), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), conversation: fc.constantFrom('c1', 'c2', 'c3') }),
);

describe('conversation counts kept by triggers', () => {
  it('equal a count of the messages after any appends, forgets, deletes and imports', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const m = fresh();
        let minute = 0;
        let forgot = false;
        try {
          for (const s of steps) {
            if (s.kind === 'append') {
              for (let i = 0; i < s.n; i++) m.messages.append({ role: i % 2 ? 'assistant' : 'user', content: `message ${minute}`, time: new Date(Date.parse('2026-09-01T00:00:00Z') + minute++ * 60_000).toISOString(), conversation: s.conversation, learn: false });
            } else if (s.kind === 'forget') {
              const all = m.conversations.list().flatMap((c) => m.conversations.messages(c.id));
              if (all.length) {
                m.messages.forget(all[s.pick % all.length]!.id);
                forgot = true;
              }
            } else if (m.conversations.list().some((c) => c.id === s.conversation)) {
              m.conversations.delete(s.conversation, { forget: false });
            }
          }
          const expected = counted(m);
          expect(listed(m).map((c) => [c.id, c.message_count])).toEqual(expected.map((c) => [c.id, c.message_count]));
          if (!forgot) expect(listed(m)).toEqual(expected);
          const doc = m.transfer.export();
          // into an empty store (a bulk load) and into one in use
          const empty = fresh('2027-01-01T00:00:00.000Z');
          empty.transfer.import(structuredClone(doc));
          expect(listed(empty)).toEqual(counted(empty));
          empty.close();
          const used = fresh('2027-01-01T00:00:00.000Z');
          used.messages.append({ role: 'user', content: 'already here', time: '2026-01-01T00:00:00Z', conversation: 'other', learn: false });
          used.transfer.import(structuredClone(doc));
          expect(listed(used)).toEqual(counted(used));
          used.close();
        } finally {
          m.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});

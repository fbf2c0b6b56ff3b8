/**
 * A hook on the Timeline joins a fact to the one that closed it. The closed version keeps the id of
 * the closer's version of the time (a later version of the closer's lineage leaves it as it is:
 * slot-resolver.ts sameInvalidator), so the window names the closer's version it shows instead.
 * Before, a closer edited since (or reopened when the value after it was forgotten) was not found
 * among the bars, and the hook fell back to "ended by a fact not shown" (found trying the screens,
 * 2026-12-07).
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';

const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;

describe('the Timeline names the closer it shows', () => {
  it('after the closer is edited, the closed fact points at the closer’s version on screen; known at before the edit, at the old one', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    m.facts.observe([
      { subject: 'me', predicate: 'manager', object: 'Aiko', fact: 'My manager is Aiko.', cardinality: 'one', reference_time: '2025-01-10T10:00:00+09:00' },
      { subject: 'me', predicate: 'manager', object: 'Kenji', fact: 'My manager is Kenji.', cardinality: 'one', reference_time: '2025-06-10T10:00:00+09:00' },
    ]);
    const facts = () => timelineWindow(databaseOf(m), { ...ALL, rowLimit: 10 }).rows.flatMap((r) => r.facts);
    const before = facts();
    const kenji1 = before.find((f) => f.object === 'Kenji')!;
    expect(before.find((f) => f.object === 'Aiko')!.invalidated_by).toBe(kenji1.id);
    const editedAt = m.clock.now();
    m.facts.edit(kenji1.id, { fact: 'My manager is Kenji Sato.' });

    const after = facts();
    const kenji2 = after.find((f) => f.object === 'Kenji')!;
    expect(kenji2.id).not.toBe(kenji1.id);
    expect(after.find((f) => f.object === 'Aiko')!.invalidated_by).toBe(kenji2.id);
    // known at before the edit: the old version is the one shown, and named
    const then = timelineWindow(databaseOf(m), { ...ALL, rowLimit: 10, knownAt: editedAt }).rows.flatMap((r) => r.facts);
    expect(then.find((f) => f.object === 'Aiko')!.invalidated_by).toBe(kenji1.id);
    m.close();
  });
});

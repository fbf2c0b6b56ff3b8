/**
 * A claim's id on every device (sync; store/ids.ts newSyncId): drawn when the claim is written, in
 * the form the insert trigger of migration 0029 draws (32 lowercase hex digits), one per claim, and
 * the one the outbox queues — so the trigger never writes the claim's row a second time.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { newId, newSyncId } from '../../electron/memory/store/ids';

describe('claim sync ids', () => {
  it('are 32 lowercase hex digits, all different', () => {
    const ids = Array.from({ length: 5_000 }, () => newSyncId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Drawn from the same pool as the other ids: neither repeats the other's bytes.
    expect(new Set(Array.from({ length: 1_000 }, () => newId('fct'))).size).toBe(1_000);
  });

  it('leave the other ids in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('fct'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are given to every claim a write makes, and queued for sync as they are', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
    try {
      m.facts.observe(
        Array.from({ length: 30 }, (_, i) => ({ subject: 'Sato', predicate: 'likes', object: `dish ${i}`, fact: `Sato likes dish ${i}`, reference_time: '2026-09-01T05:00:00.000Z', cardinality: 'many' })),
      );
      const { db } = storeOf(m);
      const ids = db.prepare('SELECT sync_id FROM claims ORDER BY id').pluck().all() as string[];
      expect(ids).toHaveLength(30);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
      // not queued while the memory has never synced; its first sync queues them in order
      expect(db.prepare("SELECT ref FROM sync_outbox WHERE kind = 'claim' ORDER BY seq").pluck().all()).toEqual([]);
      m.sync.outgoing(1);
      expect(db.prepare("SELECT ref FROM sync_outbox WHERE kind = 'claim' ORDER BY seq").pluck().all()).toEqual(ids);
      // once it syncs, each claim a write makes is queued as it is written
      m.facts.observe([{ subject: 'Sato', predicate: 'likes', object: 'dish 30', fact: 'Sato likes dish 30', reference_time: '2026-09-01T05:00:00.000Z', cardinality: 'many' }]);
      const next = db.prepare('SELECT sync_id FROM claims ORDER BY id DESC LIMIT 1').pluck().get() as string;
      expect(db.prepare("SELECT ref FROM sync_outbox WHERE kind = 'claim' ORDER BY seq DESC LIMIT 1").pluck().get()).toBe(next);
    } finally {
      m.close();
    }
  });
});

/**
 * The sync outbox from a device's first sync on (migration 0038, sync-outgoing.ts startOutbox): a
 * memory that never syncs keeps no second copy of its messages and claims; the first sync queues
 * what is stored then, messages before claims, and both devices end with the same memory; forgets
 * made before it still travel (a fact here; a message: sync-convergence.test.ts), also to a device
 * that imported the same document; an existing store keeps its outbox only when it has synced.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerTextFunctions } from '../../electron/memory/store/database/text-functions';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { syncOnce } from '../../electron/sync/sync-runner';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf } from '../fixtures/sync-devices';

const device = devicesClosedAfterEach();
const T = '2026-09-01T05:00:00.000Z';
const outbox = (m: Memory) => storeOf(m).db.prepare<[], { kind: string; ref: string }>('SELECT kind, ref FROM sync_outbox ORDER BY seq').all();
const claimIds = (m: Memory) => storeOf(m).db.prepare('SELECT sync_id FROM claims ORDER BY sync_id').pluck().all();
const factsOf = (m: Memory) => m.facts.list({ limit: 1_000 }).map((f) => `${f.subject} ${f.predicate} ${f.object} ${f.valid_at} ${f.invalid_at}`).sort();
const learn = (m: Memory, n: number, from = 0) =>
  m.facts.observe(Array.from({ length: n }, (_, i) => ({ subject: 'Sato', predicate: 'likes', object: `dish ${from + i}`, fact: `Sato likes dish ${from + i}`, reference_time: T, cardinality: 'many' as const })));

describe('the sync outbox, from the first sync on', () => {
  it('notes no message or claim before the first sync, which queues them all, messages first', async () => {
    const a = device();
    const b = device();
    learn(a, 20);
    expect(outbox(a).filter((r) => r.kind === 'claim' || r.kind === 'episode')).toEqual([]);
    const { db } = storeOf(a);
    const stored = (db.prepare('SELECT count(*) FROM episodes').pluck().get() as number) + (db.prepare('SELECT count(*) FROM claims').pluck().get() as number);
    const noted = outbox(a).length; // the conversation: few, noted from the start
    expect(syncOf(a).unsent()).toBe(noted + stored);

    const target = memoryTarget();
    const sent = await syncOnce(syncOf(a), target, markingCipher, { segmentRows: 7 });
    expect(sent.sent).toBe(noted + stored);
    // on from now: the next write is queued as it is written, and only it goes
    learn(a, 1, 20);
    const kinds = outbox(a).map((r) => r.kind);
    expect(kinds.filter((k) => k === 'claim')).toHaveLength(1);
    expect(kinds.indexOf('episode')).toBeLessThan(kinds.indexOf('claim'));
    expect((await syncOnce(syncOf(a), target, markingCipher)).sent).toBe(kinds.length);

    await syncOnce(syncOf(b), target, markingCipher);
    expect(factsOf(b)).toEqual(factsOf(a));
    expect(factsOf(b)).toHaveLength(21);
    // what b received is never queued as b's own
    expect(outbox(b)).toEqual([]);
  });

  it('sends a forget made before the first sync to a device that imported the same document', async () => {
    const a = device();
    learn(a, 3);
    // c holds the same memory without having synced (the same export imported: the same claims)
    // and forgets a fact
    const c = device();
    c.transfer.import(a.transfer.export());
    expect(claimIds(c)).toEqual(claimIds(a));
    c.facts.forget(c.facts.list().find((f) => f.object === 'dish 1')!.id);
    const target = memoryTarget();
    await syncOnce(syncOf(c), target, markingCipher);
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(c), target, markingCipher);
    expect(a.facts.list().map((f) => f.object).sort()).toEqual(['dish 0', 'dish 2']);
    expect(factsOf(c)).toEqual(factsOf(a));
    // no version of it is left on either (its message stays, as a forget of a fact leaves it here)
    for (const m of [a, c]) expect(m.transfer.export().facts.filter((f) => f.fact.includes('dish 1'))).toEqual([]);
  });

  it('drops the queued messages and claims of a store that never synced, and keeps those of one that did (migration 0038)', () => {
    const before = migrations.findIndex((m) => m.name === '0038_sync_outbox_once_syncing');
    expect(before).toBeGreaterThan(0);
    const open = (synced: boolean) => {
      const db = new Database(':memory:');
      registerTextFunctions(db);
      registerNaturalOrder(db);
      migrate(db, migrations.slice(0, before));
      db.prepare("INSERT INTO episodes (id, role, content, reference_time, created_at) VALUES ('e1', 'user', 'hi', ?, ?)").run(T, T);
      db.prepare("INSERT INTO sync_outbox (kind, ref, recorded_at) VALUES ('forget', '{}', ?)").run(T);
      if (synced) db.prepare("INSERT INTO sync_state (key, value) VALUES ('device', 'd1')").run();
      migrate(db);
      return db;
    };
    const never = open(false);
    expect(never.prepare('SELECT kind FROM sync_outbox ORDER BY seq').pluck().all()).toEqual(['forget']);
    never.prepare("INSERT INTO episodes (id, role, content, reference_time, created_at) VALUES ('e2', 'user', 'hi', ?, ?)").run(T, T);
    expect(never.prepare("SELECT count(*) FROM sync_outbox WHERE kind = 'episode'").pluck().get()).toBe(0);
    never.close();
    const synced = open(true);
    expect(synced.prepare('SELECT kind, ref FROM sync_outbox ORDER BY seq').all()).toEqual([
      { kind: 'episode', ref: 'e1' },
      { kind: 'forget', ref: '{}' },
    ]);
    synced.prepare("INSERT INTO episodes (id, role, content, reference_time, created_at) VALUES ('e2', 'user', 'hi', ?, ?)").run(T, T);
    expect(synced.prepare("SELECT ref FROM sync_outbox WHERE kind = 'episode' ORDER BY seq").pluck().all()).toEqual(['e1', 'e2']);
    synced.close();
  });
});

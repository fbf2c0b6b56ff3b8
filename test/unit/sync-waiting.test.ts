/**
 * Claims that arrive before the messages they cite (electron/memory/sync/sync-waiting.ts): they wait,
 * indexed by each message they wait for, and a segment wakes only the claims its messages (or their
 * forgets) concern. A memory whose claims were queued before its messages (a large import did so)
 * is the extreme: on its first sync onto an empty device every claim waits, then its message wakes it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerTextFunctions } from '../../electron/memory/store/database/text-functions';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { WaitingClaims } from '../../electron/memory/sync/sync-waiting';
import { syncOnce } from '../../electron/sync/sync-runner';
import type { SyncClaim } from '../../shared/sync-records';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf } from '../fixtures/sync-devices';

const device = devicesClosedAfterEach();

const waitingCount = (m: Memory) => storeOf(m).db.prepare('SELECT count(*) FROM sync_waiting').pluck().get() as number;
const factsOf = (m: Memory) => m.facts.list({ limit: 10_000 }).map((f) => `${f.subject} ${f.predicate} ${f.object} ${f.valid_at} ${f.invalid_at}`).sort();

function claim(uid: string, episodeIds: string[]): SyncClaim {
  return {
    kind: 'claim', uid, subject: { id: 'ent_s', name: 'Sato', type: 'person' }, predicate: 'likes', object: null, object_literal: 'tea', fact: 'Sato likes tea',
    cardinality: 'many', valid_at: '2026-09-01T00:00:00.000Z', valid_at_precision: 'instant', reference_time: '2026-09-01T00:00:00.000Z',
    end_at: null, end_precision: null, end_kind: null, episode_ids: episodeIds, origin: 'extracted',
  };
}

describe('claims waiting for their messages', () => {
  it('are woken by the messages they wait for, and by no other', () => {
    const waiting = new WaitingClaims(storeOf(device()).db);
    waiting.wait(claim('c1', ['e1', 'e2']), ['e1', 'e2']);
    waiting.wait(claim('c2', ['e3']), ['e3']);
    expect(waiting.wake([])).toEqual([]);
    expect(waiting.wake(['e9'])).toEqual([]);
    expect(waiting.wake(['e2']).map((c) => c.uid)).toEqual(['c1']);
    // Woken is taken out: waking it again finds nothing until it waits again.
    expect(waiting.wake(['e1'])).toEqual([]);
    expect(waiting.stop('c2')?.uid).toBe('c2');
    expect(waiting.wake(['e3'])).toEqual([]);
  });

  it('a claim waiting under the empty id (found ready when the index was built) wakes at the next apply', () => {
    const { db } = storeOf(device());
    const waiting = new WaitingClaims(db);
    db.prepare('INSERT INTO sync_waiting (uid, record) VALUES (?, ?)').run('c1', JSON.stringify(claim('c1', ['e1'])));
    db.prepare("INSERT INTO sync_waiting_for (episode_id, uid) VALUES ('', 'c1')").run();
    expect(waiting.wake([]).map((c) => c.uid)).toEqual(['c1']);
    expect(db.prepare('SELECT count(*) FROM sync_waiting_for').pluck().get()).toBe(0);
  });

  it('a memory imported whole syncs onto an empty device in small segments, each claim woken by its message', async () => {
    const a = device();
    const b = device();
    a.transfer.import(syntheticExport(generateSyntheticMemory({ observations: 120, seed: 5 }), 120));
    syncOf(a).outgoing(1); // the first sync's outbox, turned on: every message, then every claim
    // Every claim queued before its messages: how a large import queued them before it queued its messages
    // first (bulk-load.ts), as another device's older Tempora still sends them.
    storeOf(a).db.exec("UPDATE sync_outbox SET seq = seq + 1000000 WHERE kind = 'episode'");
    const target = memoryTarget();
    await syncOnce(syncOf(a), target, markingCipher, { segmentRows: 25 });
    const waitingAfter: number[] = [];
    await syncOnce(syncOf(b), target, markingCipher, { onProgress: () => waitingAfter.push(waitingCount(b)) });
    // The claims went first and waited; their messages came after and woke every one of them.
    expect(Math.max(...waitingAfter)).toBeGreaterThan(0);
    expect(waitingCount(b)).toBe(0);
    expect(storeOf(b).db.prepare('SELECT count(*) FROM sync_waiting_for').pluck().get()).toBe(0);
    expect(factsOf(b)).toEqual(factsOf(a));
    expect(factsOf(b).length).toBeGreaterThan(50);
  });

  it('waiting from before the index (migration 0033) are indexed by the messages still missing, or woken at the next apply', () => {
    const db = new Database(':memory:');
    registerTextFunctions(db);
    registerNaturalOrder(db);
    const before = migrations.findIndex((m) => m.name === '0033_sync_waiting_for');
    expect(before).toBeGreaterThan(0);
    migrate(db, migrations.slice(0, before));
    db.prepare("INSERT INTO episodes (id, role, content, reference_time, created_at) VALUES ('e1', 'user', 'hi', '2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z')").run();
    const wait = db.prepare('INSERT INTO sync_waiting (uid, record) VALUES (?, ?)');
    wait.run('c1', JSON.stringify(claim('c1', ['e1', 'e2'])));
    wait.run('c2', JSON.stringify(claim('c2', ['e1'])));
    migrate(db);
    expect(db.prepare('SELECT episode_id, uid FROM sync_waiting_for ORDER BY uid, episode_id').all()).toEqual([
      { episode_id: 'e2', uid: 'c1' },
      { episode_id: '', uid: 'c2' },
    ]);
    db.close();
  });
});

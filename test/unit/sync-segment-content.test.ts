/**
 * What each of this device's segments holds, kept so a forget finds the segments to rewrite
 * (electron/memory/sync/sync-outgoing.ts; migration 0035 keeps it as one row a segment): the keys
 * kept before that migration are carried over, and a rewrite drops only the keys it took out.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { registerTextFunctions } from '../../electron/memory/store/database/text-functions';
import { segmentRewritten, segmentsToRewrite, setStateValue } from '../../electron/memory/sync/sync-outgoing';

describe('the keys of this device’s segments', () => {
  it('kept per key before migration 0035 are found per segment after it, and a rewrite drops only what it took out', () => {
    const db = new Database(':memory:');
    registerTextFunctions(db);
    registerNaturalOrder(db);
    const before = migrations.findIndex((m) => m.name === '0035_sync_segment_content');
    expect(before).toBeGreaterThan(0);
    migrate(db, migrations.slice(0, before));
    const segment = db.prepare('INSERT INTO sync_segments (seq, name, last_outbox, uploaded) VALUES (?, ?, ?, 1)');
    segment.run(1, 'seg-1', 10);
    segment.run(2, 'seg-2', 20);
    segment.run(3, 'seg-3', 30);
    const key = db.prepare('INSERT INTO sync_segment_keys (key, seq) VALUES (?, ?)');
    for (const [k, seq] of [['claim:a', 1], ['episode:e1', 1], ['claim:b', 2], ['episode:e1', 2], ['claim:c', 3]] as const) key.run(k, seq);
    migrate(db);

    setStateValue(db, 'purge', JSON.stringify(['episode:e1', 'claim:b', 'claim:zzz']));
    const found = segmentsToRewrite(db).map((s) => ({ ...s, keys: [...s.keys].sort() }));
    expect(found).toEqual([
      { seq: 1, name: 'seg-1', keys: ['episode:e1'] },
      { seq: 2, name: 'seg-2', keys: ['claim:b', 'episode:e1'] },
    ]);
    segmentRewritten(db, 1, 'seg-1b', ['episode:e1']);
    segmentRewritten(db, 2, 'seg-2b', ['claim:b', 'episode:e1']);
    expect(segmentsToRewrite(db)).toEqual([]);
    setStateValue(db, 'purge', JSON.stringify(['claim:a', 'claim:c']));
    expect(segmentsToRewrite(db)).toEqual([
      { seq: 1, name: 'seg-1b', keys: ['claim:a'] },
      { seq: 3, name: 'seg-3', keys: ['claim:c'] },
    ]);
    db.close();
  });
});

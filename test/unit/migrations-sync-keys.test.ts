/**
 * What each of this device's segments holds, kept so a forget finds the segments to rewrite
 * (electron/memory/sync/sync-outgoing.ts; migration 0035 keeps it as one row a segment): the keys
 * kept before that migration are carried over, and a rewrite drops only the keys it took out. And
 * each claim's messages (migration 0036), by which a forget finds the claims citing a message. And
 * this device's one name (migration 0040): the one the command set last, kept as the setting.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { registerTextFunctions } from '../../electron/memory/store/database/text-functions';
import { deviceNameOf, segmentRewritten, segmentsToRewrite, setStateValue, stateValue } from '../../electron/memory/sync/sync-outgoing';

describe('what sync keeps beside the rows', () => {
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

  it('each claim’s messages from before migration 0036 are recorded by it, and kept by trigger after', () => {
    const db = new Database(':memory:');
    registerTextFunctions(db);
    registerNaturalOrder(db);
    migrate(db, migrations.slice(0, migrations.findIndex((m) => m.name === '0036_claim_episodes')));
    db.pragma('foreign_keys = OFF'); // claims without their facts: only the messages matter here
    const claim = db.prepare(
      "INSERT INTO claims (id, fact_id, subject_id, predicate, fact, cardinality, valid_at, reference_time, episode_ids, origin) VALUES (?, 'f', 's', 'likes', 'x', 'many', '2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z', ?, 'observed')",
    );
    claim.run(1, '["e1","e2"]');
    claim.run(2, '["e2"]');
    migrate(db);
    const held = () => db.prepare('SELECT episode_id, claim_id FROM claim_episodes ORDER BY episode_id, claim_id').all();
    expect(held()).toEqual([
      { episode_id: 'e1', claim_id: 1 },
      { episode_id: 'e2', claim_id: 1 },
      { episode_id: 'e2', claim_id: 2 },
    ]);
    db.prepare('UPDATE claims SET episode_ids = ? WHERE id = 1').run('["e3"]');
    db.prepare('DELETE FROM claims WHERE id = 2').run();
    claim.run(3, '["e1"]');
    expect(held()).toEqual([
      { episode_id: 'e1', claim_id: 3 },
      { episode_id: 'e3', claim_id: 1 },
    ]);
    db.close();
  });

  it('this device’s name, kept twice before migration 0040, is one setting after it: the one set last', () => {
    const names = (kept: { command?: string; settings?: string }) => {
      const db = new Database(':memory:');
      registerTextFunctions(db);
      registerNaturalOrder(db);
      migrate(db, migrations.slice(0, migrations.findIndex((m) => m.name === '0040_one_device_name')));
      if (kept.command !== undefined) setStateValue(db, 'deviceName', kept.command);
      if (kept.settings !== undefined) db.prepare("INSERT INTO memory_settings (key, value) VALUES ('syncDeviceName', ?)").run(JSON.stringify(kept.settings));
      migrate(db);
      const after = { name: deviceNameOf(db), left: stateValue(db, 'deviceName') ?? null };
      db.close();
      return after;
    };
    expect(names({ command: 'Desk “1”', settings: 'Laptop' })).toEqual({ name: 'Desk “1”', left: null });
    expect(names({ command: 'Desk' })).toEqual({ name: 'Desk', left: null });
    expect(names({ settings: 'Laptop' })).toEqual({ name: 'Laptop', left: null });
  });
});

/**
 * What a sync costs (issue 31 item 7), on a memory given by the caller: its first sync to an empty
 * folder (records packed, gzipped, sealed and written), that folder onto a second empty device
 * (read, opened, applied), then 100 new messages synced incrementally, up and down. Encrypted as in
 * use (sync-crypto.ts); scrypt's one derivation per passphrase is left out of the rates. The memory
 * is changed: it is left having synced, with the 100 messages.
 *
 * With `firstApply: false` (a memory too large to wait for its first sync onto an empty device) the
 * second device is a copy of the first's store made after the upload, given a device of its own:
 * a device that holds the whole memory, for the incremental sync — issue 31's goal is on a 1M memory.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory, type Memory } from '../../electron/memory';
import { databaseOf } from '../../electron/memory/memory';
import { databasePath } from '../../electron/memory/store/data-dir';
import { cipherFromKey, unlockTarget } from '../../electron/sync/sync-crypto';
import { syncOnce } from '../../electron/sync/sync-runner';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';
import { count, ms, perSecond } from './stats';

/** Issue 31's goals: a first sync's rate, and an incremental sync of 100 messages on a 1M memory. */
export const GOAL_FIRST_SYNC_PER_S = 20_000;
export const GOAL_INCREMENTAL_MS = 1_000;
const GOAL_INCREMENTAL_AT = 1_000_000;

export interface SyncBenchResult {
  observations: number;
  /** Outbox rows before the first sync. */
  records: number;
  upload: { ms: number; records: number };
  /** Null when the second device was a copy (`firstApply: false`). */
  apply: { ms: number; records: number; segments: number } | null;
  /** The 100 messages' sync: its time and records each way (the device that uploads them sends nothing else). */
  incremental: { upMs: number; downMs: number; upRecords: number; downRecords: number };
  /** The second device holds as many live facts as the first. */
  agree: boolean;
}

export async function benchSync(memory: Memory, dir: string, observations: number, options: { firstApply?: boolean; storeDir?: string } = {}): Promise<SyncBenchResult> {
  mkdirSync(join(dir, 'target'), { recursive: true });
  const target = createFolderTarget(join(dir, 'target'));
  const cipher = cipherFromKey(await unlockTarget(target, 'correct horse battery staple'));
  const records = memory.sync.unsent();
  let start = performance.now();
  const sent = await syncOnce(memory.sync, target, cipher);
  // Fewer records than outbox rows when a row was written twice before the sync (it goes once).
  const upload = { ms: performance.now() - start, records: sent.sent };
  const firstApply = options.firstApply ?? true;
  if (!firstApply && !options.storeDir) throw new Error('benchSync: a copied second device needs the first device\'s storeDir');
  const device = firstApply ? openMemory({ dataDir: join(dir, 'second-device') }) : copiedDevice(memory, options.storeDir!, join(dir, 'second-device'));
  try {
    let apply: SyncBenchResult['apply'] = null;
    if (firstApply) {
      start = performance.now();
      const got = await syncOnce(device.sync, target, cipher);
      apply = { ms: performance.now() - start, records: got.applied.reduce((n, s) => n + s.records, 0), segments: got.applied.length };
    }
    // The incremental sync is a later one: a first sync's background work (its WAL copied into the
    // database, gigabytes at 1M) is over by then. Measured during it, each commit's fsync waited
    // behind that copy (up 2.7 s, down 1.0 s at 1M on 2026-12-05).
    await Promise.all([memory.settled(), device.settled()]);
    for (let i = 0; i < 100; i++) {
      memory.messages.append({ role: 'user', content: `message ${i} of the incremental sync`, time: new Date(Date.UTC(2026, 8, 1, 0, i)).toISOString(), conversation: 'bench-sync' });
    }
    start = performance.now();
    const up = await syncOnce(memory.sync, target, cipher);
    const upMs = performance.now() - start;
    start = performance.now();
    const down = await syncOnce(device.sync, target, cipher);
    const downMs = performance.now() - start;
    const live = (m: Memory) => m.facts.page({ limit: 1 }).total;
    const downRecords = down.applied.reduce((n, s) => n + s.records, 0);
    return { observations, records, upload, apply, incremental: { upMs, downMs, upRecords: up.sent, downRecords }, agree: live(memory) === live(device) };
  } finally {
    device.close();
  }
}

/**
 * The first device's store copied (it has just uploaded everything, so its outbox is empty) and made
 * another device: a device id of its own, none of the first's segments as its own, and the first's
 * segments counted as applied.
 */
function copiedDevice(memory: Memory, storeDir: string, dataDir: string): Memory {
  const db = databaseOf(memory);
  db.pragma('wal_checkpoint(TRUNCATE)');
  mkdirSync(dataDir, { recursive: true });
  for (const suffix of ['', '-wal']) if (existsSync(databasePath(storeDir) + suffix)) copyFileSync(databasePath(storeDir) + suffix, databasePath(dataDir) + suffix);
  const first = memory.sync.device();
  const seq = Math.max(0, ...memory.sync.ownSegments().map((s) => s.seq));
  const copy = openMemory({ dataDir });
  const copied = databaseOf(copy);
  copied.transaction(() => {
    copied.prepare("DELETE FROM sync_state WHERE key IN ('device', 'lastSync')").run();
    copied.prepare("DELETE FROM memory_settings WHERE key = 'syncDeviceName'").run();
    copied.prepare('DELETE FROM sync_segments').run();
    copied.prepare('DELETE FROM sync_segment_content').run();
    copied.prepare('INSERT OR REPLACE INTO sync_cursors (device, name, seq, applied_at) VALUES (?, ?, ?, ?)').run(first.id, first.name, seq, new Date().toISOString());
  })();
  return copy;
}

export function formatSync(r: SyncBenchResult): string {
  const uploadRate = r.upload.records / (r.upload.ms / 1000);
  const apply = r.apply;
  const applyRate = apply === null ? 0 : apply.records / (apply.ms / 1000);
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const atGoal = r.observations >= GOAL_INCREMENTAL_AT;
  const incremental = Math.max(r.incremental.upMs, r.incremental.downMs);
  return [
    `  first sync, upload: ${count(r.upload.records)} records (${count(r.records)} outbox rows) in ${ms(r.upload.ms)} (${perSecond(uploadRate)}) — goal ≥ ${count(GOAL_FIRST_SYNC_PER_S)}/s ${verdict(uploadRate >= GOAL_FIRST_SYNC_PER_S)}`,
    apply === null
      ? '  first sync onto an empty device: not run (--sync-copy: the second device is a copy of the first)'
      : `  first sync onto an empty device: ${count(apply.records)} records, ${apply.segments} segments in ${ms(apply.ms)} (${perSecond(applyRate)}) — goal ≥ ${count(GOAL_FIRST_SYNC_PER_S)}/s ${verdict(applyRate >= GOAL_FIRST_SYNC_PER_S)}`,
    `  incremental, 100 new messages: up ${ms(r.incremental.upMs)} (${count(r.incremental.upRecords)} records), down ${ms(r.incremental.downMs)} (${count(r.incremental.downRecords)}) — goal ≤ ${ms(GOAL_INCREMENTAL_MS)} on a 1M memory` +
      (atGoal ? ` ${verdict(incremental <= GOAL_INCREMENTAL_MS)}` : ` (this memory: ${count(r.observations)} observations)`),
    `  the two devices hold as many live facts: ${r.agree ? 'yes' : 'NO'}`,
  ].join('\n');
}

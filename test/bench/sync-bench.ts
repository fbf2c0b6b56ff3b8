/**
 * What a sync costs (issue 31 item 7), on a memory given by the caller: its first sync to an empty
 * folder (records packed, gzipped, sealed and written), that folder onto a second empty device
 * (read, opened, applied), then 100 new messages synced incrementally, up and down. Encrypted as in
 * use (sync-crypto.ts); scrypt's one derivation per passphrase is left out of the rates. The memory
 * is changed: it is left having synced, with the 100 messages.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openMemory, type Memory } from '../../electron/memory';
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
  apply: { ms: number; records: number; segments: number };
  incremental: { upMs: number; downMs: number };
  /** The second device holds as many live facts as the first. */
  agree: boolean;
}

export async function benchSync(memory: Memory, dir: string, observations: number): Promise<SyncBenchResult> {
  mkdirSync(join(dir, 'target'), { recursive: true });
  const target = createFolderTarget(join(dir, 'target'));
  const cipher = cipherFromKey(await unlockTarget(target, 'correct horse battery staple'));
  const records = memory.sync.unsent();
  let start = performance.now();
  const sent = await syncOnce(memory.sync, target, cipher);
  // Fewer records than outbox rows when a row was written twice before the sync (it goes once).
  const upload = { ms: performance.now() - start, records: sent.sent };
  const device = openMemory({ dataDir: join(dir, 'second-device') });
  try {
    start = performance.now();
    const got = await syncOnce(device.sync, target, cipher);
    const apply = { ms: performance.now() - start, records: got.applied.reduce((n, s) => n + s.records, 0), segments: got.applied.length };
    for (let i = 0; i < 100; i++) {
      memory.messages.append({ role: 'user', content: `message ${i} of the incremental sync`, time: new Date(Date.UTC(2026, 8, 1, 0, i)).toISOString(), conversation: 'bench-sync' });
    }
    start = performance.now();
    await syncOnce(memory.sync, target, cipher);
    const upMs = performance.now() - start;
    start = performance.now();
    await syncOnce(device.sync, target, cipher);
    const downMs = performance.now() - start;
    const live = (m: Memory) => m.facts.page({ limit: 1 }).total;
    return { observations, records, upload, apply, incremental: { upMs, downMs }, agree: live(memory) === live(device) };
  } finally {
    device.close();
  }
}

export function formatSync(r: SyncBenchResult): string {
  const uploadRate = r.upload.records / (r.upload.ms / 1000);
  const applyRate = r.apply.records / (r.apply.ms / 1000);
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const atGoal = r.observations >= GOAL_INCREMENTAL_AT;
  const incremental = Math.max(r.incremental.upMs, r.incremental.downMs);
  return [
    `  first sync, upload: ${count(r.upload.records)} records (${count(r.records)} outbox rows) in ${ms(r.upload.ms)} (${perSecond(uploadRate)}) — goal ≥ ${count(GOAL_FIRST_SYNC_PER_S)}/s ${verdict(uploadRate >= GOAL_FIRST_SYNC_PER_S)}`,
    `  first sync onto an empty device: ${count(r.apply.records)} records, ${r.apply.segments} segments in ${ms(r.apply.ms)} (${perSecond(applyRate)}) — goal ≥ ${count(GOAL_FIRST_SYNC_PER_S)}/s ${verdict(applyRate >= GOAL_FIRST_SYNC_PER_S)}`,
    `  incremental, 100 new messages: up ${ms(r.incremental.upMs)}, down ${ms(r.incremental.downMs)} — goal ≤ ${ms(GOAL_INCREMENTAL_MS)} on a 1M memory` +
      (atGoal ? ` ${verdict(incremental <= GOAL_INCREMENTAL_MS)}` : ` (this memory: ${count(r.observations)} observations)`),
    `  the two devices hold as many live facts: ${r.agree ? 'yes' : 'NO'}`,
  ].join('\n');
}

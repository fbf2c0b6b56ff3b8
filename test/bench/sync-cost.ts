/**
 * What a sync costs (issue 31 item 7, first figures): N facts observed on one device, its first sync
 * to an empty folder (the records packed, sealed and written), that folder onto a second empty
 * device (read, opened, applied), then 100 new messages synced incrementally. Encrypted as in use
 * (sync-crypto.ts; scrypt's one derivation per sync is left out of the rates).
 *
 *   npm run bench:sync -- [--facts 20000]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory, type Memory } from '../../electron/memory';
import { cipherFromKey, unlockTarget } from '../../electron/sync/sync-crypto';
import { syncOnce } from '../../electron/sync/sync-runner';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';

const syncOf = (memory: Memory) => memory.sync;

function observations(n: number, from: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const at = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    return { subject: `Person ${i % 500}`, predicate: 'note', object: `note ${i}`, object_type: 'literal', fact: `Person ${i % 500} noted ${i}.`, reference_time: at, cardinality: 'many' };
  });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--facts');
  const facts = at > 0 ? Number(process.argv[at + 1]) : 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'tempora-sync-cost-'));
  try {
    mkdirSync(join(dir, 'folder'));
    const a = openMemory({ dataDir: join(dir, 'a') });
    const b = openMemory({ dataDir: join(dir, 'b') });
    let start = performance.now();
    for (let i = 0; i < facts; i += 1_000) a.facts.observe(observations(Math.min(1_000, facts - i), i));
    const observe = (performance.now() - start) / 1000;
    const target = createFolderTarget(join(dir, 'folder'));
    const cipher = cipherFromKey(await unlockTarget(target, 'correct horse battery staple'));
    const records = syncOf(a).unsent();

    start = performance.now();
    const sent = await syncOnce(syncOf(a), target, cipher);
    const upload = (performance.now() - start) / 1000;
    start = performance.now();
    const got = await syncOnce(syncOf(b), target, cipher);
    const apply = (performance.now() - start) / 1000;
    const applied = got.applied.reduce((n, s) => n + s.records, 0);

    for (let i = 0; i < 100; i++) a.messages.append({ role: 'user', content: `message ${i} of the incremental sync`, time: new Date(Date.UTC(2026, 8, 1, 0, i)).toISOString(), conversation: 'bench' });
    start = performance.now();
    await syncOnce(syncOf(a), target, cipher);
    const incrementalUp = (performance.now() - start) / 1000;
    start = performance.now();
    await syncOnce(syncOf(b), target, cipher);
    const incrementalDown = (performance.now() - start) / 1000;
    const same = a.facts.list({ limit: 5 }).length === b.facts.list({ limit: 5 }).length;
    console.log(`facts ${facts}, outbox rows ${records}, records sent ${sent.sent}; observing them took ${observe.toFixed(2)} s (for comparison)`);
    console.log(`first sync, upload: ${upload.toFixed(2)} s (${Math.round(sent.sent / upload)} records/s)`);
    console.log(`first sync, onto an empty device: ${apply.toFixed(2)} s (${Math.round(applied / apply)} records/s, ${got.applied.length} segments)`);
    console.log(`incremental, 100 messages: up ${incrementalUp.toFixed(2)} s, down ${incrementalDown.toFixed(2)} s; devices agree: ${same}`);
    a.close();
    b.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

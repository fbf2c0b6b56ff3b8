/**
 * A memory imported whole, then synced (bulk-load.ts, store/sync-outbox.ts, sync-outgoing.ts
 * startOutbox): nothing is queued until the first sync, which queues every message before the claims
 * that cite it, whether the load's worker wrote the messages or not; the import gives every claim a
 * sync id — so the first sync onto an empty device parks no claim waiting for
 * its message, and both devices hold the same memory.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { syncOnce } from '../../electron/sync/sync-runner';
import { syntheticExport } from '../bench/synthetic-export';
import { fileMemories } from '../fixtures/file-memories';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { markingCipher, memoryTarget, syncOf } from '../fixtures/sync-devices';

const files = fileMemories('import-sync');

const outboxKinds = (m: Memory) => storeOf(m).db.prepare<[], { kind: string }>('SELECT kind FROM sync_outbox ORDER BY seq').all().map((r) => r.kind);
const factsOf = (m: Memory) => m.facts.list({ limit: 10_000 }).map((f) => `${f.subject} ${f.predicate} ${f.object} ${f.valid_at} ${f.invalid_at}`).sort();

describe('a memory imported whole, then synced', () => {
  for (const helper of [true, false]) {
    it(`queues each message before the claims that cite it (${helper ? 'the load’s worker writing the messages' : 'no worker'})`, async () => {
      const dir = files.dir();
      const path = join(dir, 'export.json');
      writeFileSync(path, JSON.stringify(syntheticExport(generateSyntheticMemory({ observations: 150, seed: 11 }), 150)));
      const a = files.open(join(dir, 'a'));
      const summary = await a.transfer.importFile(path, { label: 'export.json', helper });
      // A memory that has never synced notes nothing for other devices …
      expect(outboxKinds(a)).toEqual(['conversation']); // conversations are few: noted from the start
      expect(syncOf(a).unsent()).toBe(1 + summary.episodes + (storeOf(a).db.prepare('SELECT count(*) FROM claims').pluck().get() as number));
      // … until its first sync turns the outbox on (reading what goes first), queueing what it holds.
      syncOf(a).outgoing(1);
      const kinds = outboxKinds(a);
      const claims = kinds.filter((k) => k === 'claim').length;
      expect(claims).toBeGreaterThan(100);
      expect(kinds.filter((k) => k === 'episode').length).toBe(summary.episodes);
      expect(kinds.lastIndexOf('episode')).toBeLessThan(kinds.indexOf('claim'));
      expect(storeOf(a).db.prepare('SELECT count(*) FROM claims WHERE sync_id IS NULL').pluck().get()).toBe(0);

      const b = files.open(join(dir, 'b'));
      const target = memoryTarget();
      await syncOnce(syncOf(a), target, markingCipher, { segmentRows: 40 });
      const parked: number[] = [];
      await syncOnce(syncOf(b), target, markingCipher, { onProgress: () => parked.push(storeOf(b).db.prepare('SELECT count(*) FROM sync_waiting').pluck().get() as number) });
      expect(parked.length).toBeGreaterThan(3);
      expect(Math.max(...parked)).toBe(0);
      expect(factsOf(b)).toEqual(factsOf(a));
    });
  }
});

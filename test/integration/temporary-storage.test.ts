/**
 * Where SQLite keeps its temporary data (open-database.ts, import-into.ts): the statement journal of
 * each write in memory — a fact version's insert changes more pages than SQLite keeps in memory
 * before it spills to a file, and wrote that file on every insert — while a bulk import's sorts,
 * which grow with the document, go to disk and the memory setting comes back after it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';

/** SQLite's PRAGMA temp_store values. */
const FILE = 1;
const MEMORY = 2;

const dirs: string[] = [];
const open: Memory[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) {
    await m.settled();
    m.close();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function memoryIn(): Memory {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-temp-store-'));
  dirs.push(dir);
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-11-01T00:00:00.000Z', 1000) });
  open.push(memory);
  return memory;
}

const tempStore = (m: Memory) => storeOf(m).db.pragma('temp_store', { simple: true });

describe('temporary storage', () => {
  it('keeps statement journals in memory on an opened store', () => {
    expect(tempStore(memoryIn())).toBe(MEMORY);
  });

  it('sorts a bulk import on disk and keeps journals in memory again after it', () => {
    const memory = memoryIn();
    const path = join(dirs[0]!, 'export.json');
    writeFileSync(path, JSON.stringify(syntheticExport(generateSyntheticMemory({ observations: 300, seed: 3 }), 300)));
    const during: number[] = [];
    const summary = memory.transfer.importFileNow(path, { label: 'export.json', onProgress: ({ phase }) => phase === 'writing' && during.push(tempStore(memory) as number) });
    expect(summary.facts).toBeGreaterThan(0);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((value) => value === FILE)).toBe(true);
    expect(tempStore(memory)).toBe(MEMORY);
  });
});

/**
 * Where SQLite keeps its temporary data (open-database.ts, import-into.ts): the statement journal of
 * each write in memory — a fact version's insert changes more pages than SQLite keeps in memory
 * before it spills to a file, and wrote that file on every insert — while a bulk import's sorts,
 * which grow with the document, go to disk and the memory setting comes back after it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';
import { syntheticExport } from '../bench/synthetic-export';
import { fileMemories } from '../fixtures/file-memories';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';

/** SQLite's PRAGMA temp_store values. */
const FILE = 1;
const MEMORY = 2;

const files = fileMemories('temp-store');

/** A memory in a folder of its own (the export file goes beside its data). */
function memoryIn(): { memory: Memory; dir: string } {
  const dir = files.dir();
  return { memory: files.open(join(dir, 'data')), dir };
}

const tempStore = (m: Memory) => storeOf(m).db.pragma('temp_store', { simple: true });

describe('temporary storage', () => {
  it('keeps statement journals in memory on an opened store', () => {
    expect(tempStore(memoryIn().memory)).toBe(MEMORY);
  });

  it('sorts a bulk import on disk and keeps journals in memory again after it', () => {
    const { memory, dir } = memoryIn();
    const path = join(dir, 'export.json');
    writeFileSync(path, JSON.stringify(syntheticExport(generateSyntheticMemory({ observations: 300, seed: 3 }), 300)));
    const during: number[] = [];
    const summary = memory.transfer.importFileNow(path, { label: 'export.json', onProgress: ({ phase }) => phase === 'writing' && during.push(tempStore(memory) as number) });
    expect(summary.facts).toBeGreaterThan(0);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((value) => value === FILE)).toBe(true);
    expect(tempStore(memory)).toBe(MEMORY);
  });
});

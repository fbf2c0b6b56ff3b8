/**
 * The export is streamed from one snapshot (memory-export.ts): pieces cut between records that join
 * to the same pretty JSON the document always had, counts known before the first piece, and a
 * memory that goes on writing (and forgetting) while a page pulls the pieces does not change the
 * document being read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type ExportStream, type Memory } from '../../electron/memory/index';

const dirs: string[] = [];
const memories: Memory[] = [];
afterEach(() => {
  for (const m of memories.splice(0)) m.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fileMemory(): Memory {
  const dataDir = mkdtempSync(join(tmpdir(), 'tempora-export-stream-'));
  dirs.push(dataDir);
  const m = openMemory({ dataDir, clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  memories.push(m);
  m.facts.observe(
    Array.from({ length: 60 }, (_, i) => ({
      subject: `Person ${i}`,
      predicate: 'lives_in',
      object: i % 2 ? '東京' : 'Osaka',
      fact: `Person ${i} lives in ${i % 2 ? '東京' : 'Osaka'} — "quoted"\nline ${i}.`,
      reference_time: `2026-09-${String((i % 28) + 1).padStart(2, '0')}T09:00:00+09:00`,
    })),
  );
  m.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'Aiko Tanaka', fact: 'My manager is Aiko Tanaka.', reference_time: '2026-09-01T09:00:00+09:00' },
    { subject: 'me', predicate: 'manager', object: 'Kenji Sato', fact: 'My manager is Kenji Sato.', reference_time: '2026-09-20T09:00:00+09:00' },
  ]);
  return m;
}

/** The document's text without its export time (each export asks the clock). */
const timeless = (text: string) => text.replace(/"exported_at": "[^"]*"/, '"exported_at": ""');

function readAll(stream: ExportStream): string[] {
  const pieces: string[] = [];
  for (let piece = stream.next(); piece !== null; piece = stream.next()) pieces.push(piece);
  return pieces;
}

describe('the export as a stream', () => {
  it('joins to the pretty JSON of the whole document, cut between records, every record counted', () => {
    const m = fileMemory();
    const whole = JSON.stringify(m.transfer.export(), null, 2);
    const stream = m.transfer.openExport();
    const pieces = readAll(stream);
    expect(pieces.length).toBe(1);
    expect(timeless(pieces.join(''))).toBe(timeless(whole));
    const doc = JSON.parse(whole);
    expect(stream.counts).toEqual({ conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length, claims: doc.claims.length });
    expect(stream.records).toBe(stream.totalRecords);
    expect(stream.next()).toBeNull();
  });

  it('pauses between pieces while the memory writes and forgets: the document is the one opened', () => {
    const m = fileMemory();
    const before = JSON.stringify(m.transfer.export(), null, 2);
    const stream = m.transfer.openExport(2_000);
    const first = stream.next()!;
    expect(first.length).toBeLessThan(before.length / 4);
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Mina Ito', fact: 'My manager is Mina Ito.', reference_time: '2026-09-25T09:00:00+09:00' }]);
    const person = m.facts.list({ subject: 'Person 3', limit: 1 })[0]!;
    m.facts.forget(person.id);
    const rest = readAll(stream);
    expect(timeless(first + rest.join(''))).toBe(timeless(before));
    expect(stream.records).toBe(stream.totalRecords);
    // And the memory has moved on: a new export holds the change.
    const after = m.transfer.export();
    expect(after.facts.some((f) => f.object === 'Mina Ito')).toBe(true);
    expect(after.facts.some((f) => f.id === person.id)).toBe(false);
  });

  it('gives pieces of about the size asked, each ending at a record', () => {
    const m = fileMemory();
    const whole = JSON.stringify(m.transfer.export(), null, 2);
    const stream = m.transfer.openExport(2_000);
    const pieces = readAll(stream);
    expect(pieces.length).toBeGreaterThan(5);
    // Every piece but the last ends where a record ends (a closing brace), and none is far past the size.
    for (const piece of pieces.slice(0, -1)) {
      expect(piece.endsWith('}')).toBe(true);
      expect(piece.length).toBeLessThan(2_000 + 1_000);
    }
    expect(pieces.join('').length).toBe(whole.length);
  });

  it('closed half way, it reads nothing more and the memory goes on', () => {
    const m = fileMemory();
    const stream = m.transfer.openExport(2_000);
    expect(stream.next()).not.toBeNull();
    stream.close();
    stream.close();
    expect(stream.next()).toBeNull();
    m.facts.observe([{ subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-26T09:00:00+09:00' }]);
    expect(m.transfer.export().facts.some((f) => f.object === 'Kyoto')).toBe(true);
  });
});

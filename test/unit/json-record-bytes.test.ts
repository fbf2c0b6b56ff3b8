/**
 * An export's records found over its bytes (electron/memory/transfer/json-record-bytes.ts): the same
 * records in the same order, with the same members around them, as JsonRecords reads from the text,
 * however the file is cut into pieces (a character's bytes split between two); a document not in the
 * exporter's shape is left to JsonRecords (NotByteReadable) before any record past its fault is told;
 * and ExportFile, reading such a file again as text, tells each record once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExportFile } from '../../electron/memory/transfer/export-records';
import { JsonRecordBytes, NotByteReadable } from '../../electron/memory/transfer/json-record-bytes';
import { JsonRecords } from '../../electron/memory/transfer/json-records';
import { EXPORT_SECTIONS } from '../../shared/export-check';
import type { MemoryExport } from '../../shared/memory-schema';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';

const members = new Set<string>(EXPORT_SECTIONS);
type Told = [member: string, index: number, value: unknown, before: unknown][];

function overBytes(text: string, piece: number): { told: Told; value: unknown } {
  const told: Told = [];
  const reader = new JsonRecordBytes({ members, onElement: (m, v, i, before) => told.push([m, i, v, structuredClone(before)]) });
  const bytes = Buffer.from(text, 'utf8');
  // Each piece in a buffer that is overwritten afterwards, as the file reader's is.
  const scratch = Buffer.alloc(piece);
  for (let at = 0; at < bytes.length; at += piece) {
    const n = bytes.copy(scratch, 0, at, Math.min(at + piece, bytes.length));
    reader.push(scratch.subarray(0, n));
    scratch.fill(0x7b);
  }
  return { told, value: reader.end() };
}

function asText(text: string): { told: Told; value: unknown } {
  const told: Told = [];
  const reader = new JsonRecords({ members, onElement: (m, v, i, before) => told.push([m, i, v, structuredClone(before)]) });
  reader.push(text);
  return { told, value: reader.end() };
}

function tricky(): MemoryExport {
  const doc = syntheticExport(generateSyntheticMemory({ observations: 60, seed: 3 }), 60);
  const f = doc.facts[3]!;
  doc.facts[3] = { ...f, fact: 'She said "I like {tea} [and] \\ coffee" — 東京で😀, tab\there' };
  // Quotes before a bracket, and a backslash last: a string's end mistaken would end the record.
  doc.facts[4] = { ...doc.facts[4]!, fact: 'odd "}" and {"[" and "]]" at the end \\' };
  // Runs of backslashes before a quote, odd and even (the quote escaped or the string's end), and a
  // string of backslashes only: the reader jumps from quote to quote and counts the ones before it.
  doc.facts[5] = { ...doc.facts[5]!, fact: 'a \\"}" b \\\\"]" c \\\\\\"{" d' };
  doc.facts[6] = { ...doc.facts[6]!, fact: '\\\\\\\\\\' };
  doc.facts[7] = { ...doc.facts[7]!, fact: '' };
  return doc;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('records over bytes', () => {
  it('are the records, order and members JsonRecords reads, however the bytes are cut', () => {
    const doc = tricky();
    for (const text of [JSON.stringify(doc, null, 2), JSON.stringify(doc), JSON.stringify({ note: [{ a: '[' }], ...doc, after: { x: [1] } })]) {
      const expected = asText(text);
      expect(expected.told.length).toBeGreaterThan(100);
      for (const piece of [1, 3, 64, 1000, 1 << 20]) expect(overBytes(text, piece)).toEqual(expected);
    }
  });

  it('leave a document in another shape to JsonRecords, telling no record past its fault', () => {
    const cases: [string, number][] = [
      ['[1, 2]', 0],
      ['{"format": "tempora.memory" "facts": [{"id": "a"}]}', 0],
      ['{"format": "tempora.memory",, "facts": [{"id": "a"}]}', 0],
      ['{"facts": [{"id": "a"}, 5, {"id": "b"}]}', 1],
      ['{"facts": [{"id": "a"} {"id": "b"}]}', 1],
      ['{"facts": [{"id": "a"}, {"id": "b" "x": 1}, {"id": "c"}]}', 1],
      ['{"facts": [{"id": "a"},]}', 1],
      ['{"facts": [{"id": "a"}]} {}', 1],
      ['{"facts": [{"id": "a"}], "episodes": [{"id": "b"}], "x": tru}', 2],
      ['{"facts": [{"id": "a\u0001"}]}', 0],
    ];
    for (const [text, told] of cases) {
      const heard: unknown[] = [];
      const reader = new JsonRecordBytes({ members, onElement: (_m, v) => heard.push(v) });
      expect(() => (reader.push(Buffer.from(text)), reader.end()), text).toThrow(NotByteReadable);
      expect(heard, text).toHaveLength(told);
    }
  });

  it('a faulty file is read again as text: each record told once, the fault placed by line and column', () => {
    const text = JSON.stringify(tricky(), null, 2);
    const fifth = text.indexOf('"predicate"', text.indexOf(`"id": "${tricky().facts[5]!.id}"`));
    const broken = `${text.slice(0, fifth)}"predicate" 1${text.slice(fifth + '"predicate"'.length)}`;
    const line = broken.slice(0, fifth).split('\n').length;
    const dir = mkdtempSync(join(tmpdir(), 'tempora-bytes-'));
    dirs.push(dir);
    const path = join(dir, 'export.json');
    writeFileSync(path, broken);
    const facts: string[] = [];
    expect(() => new ExportFile(path, 'export.json').read({ fact: (f) => facts.push(f.id) })).toThrow(new RegExp(`export\\.json.*line ${line}, column \\d+`));
    expect(facts).toEqual(tricky().facts.slice(0, 5).map((f) => f.id));
  });
});

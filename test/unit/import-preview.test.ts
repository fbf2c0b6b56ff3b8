/**
 * previewImport (electron/memory/transfer/import-preview.ts): what an import of a document would
 * do, read from the store without writing — the document's counts, and how many of its ids exist.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databasePath, openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { previewImport, previewImportFile } from '../../electron/memory/transfer/import-preview';
import type { MemoryExport } from '../../shared/memory-schema';

const dirs: string[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-preview-'));
  dirs.push(dir);
  return dir;
}

/** Closes the memory and opens its file with a plain connection (previewImport needs only that). */
function plainConnection(m: Memory, dir: string): Database.Database {
  m.close();
  const db = new Database(databasePath(dir));
  dbs.push(db);
  return db;
}

/** A memory on disk with a few of each kind of record: its export, and a plain connection to its file. */
function storeWithExport(): { db: Database.Database; doc: MemoryExport } {
  const dir = newDir();
  const m = openMemory({ dataDir: dir, clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  m.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
    { subject: '佐藤さん', predicate: '担当', object: '経理', fact: '佐藤さんは経理を担当しています。', reference_time: '2026-09-02T00:00:00Z' },
  ]);
  m.messages.append({ role: 'user', content: 'hello', time: '2026-09-03T00:00:00Z', conversation: 'c1', learn: false });
  const doc = JSON.parse(JSON.stringify(m.transfer.export())) as MemoryExport;
  return { db: plainConnection(m, dir), doc };
}

describe('previewImport', () => {
  it('counts the records of a valid document and the ids of each kind that already exist', () => {
    const { db, doc } = storeWithExport();
    expect(doc.conversations.length).toBeGreaterThan(0);
    expect(doc.episodes.length).toBeGreaterThan(0);
    expect(doc.entities.length).toBeGreaterThan(0);
    expect(doc.facts.length).toBeGreaterThan(0);
    const counts = { conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length };
    const all = counts.conversations + counts.episodes + counts.entities + counts.facts;
    // the memory's own export: every id clashes
    expect(previewImport(db, doc)).toEqual({ valid: true, error: null, ...counts, clashes: all, joins: 0 });
    // one new id of each kind: four fewer clashes, the same counts; the entity under a new id has a
    // name here already, so its facts would join that entity (an import merges it: "joins")
    doc.conversations[0]!.id = 'conv_new';
    doc.episodes[0]!.id = 'epi_new';
    doc.entities[0]!.id = 'ent_new';
    for (const claim of doc.claims) if (claim.fact_id === doc.facts[0]!.id) claim.fact_id = 'fact_new';
    doc.facts[0]!.id = 'fact_new';
    expect(previewImport(db, doc)).toEqual({ valid: true, error: null, ...counts, clashes: all - 4, joins: 1 });
    // nothing is written
    expect(db.prepare("SELECT COUNT(*) AS n FROM facts WHERE id = 'fact_new'").get()).toEqual({ n: 0 });
  });

  it('counts no clashes in an empty store, and none for an empty document', () => {
    const { db, doc } = storeWithExport();
    const emptyDir = newDir();
    const empty = plainConnection(openMemory({ dataDir: emptyDir }), emptyDir);
    const counts = { conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length };
    expect(previewImport(empty, doc)).toEqual({ valid: true, error: null, ...counts, clashes: 0, joins: 0 });
    expect(previewImport(db, { ...doc, conversations: [], episodes: [], entities: [], facts: [], claims: [] })).toEqual({ valid: true, error: null, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 });
  });

  it('refuses a document cut down to a conversation that keeps its claims, in the import’s words, from a document and from a file', async () => {
    const { db, doc } = storeWithExport();
    expect(doc.claims.length).toBeGreaterThan(1);
    const cut = { ...doc, conversations: doc.conversations.slice(0, 1), episodes: [], entities: [], facts: [] };
    const words = `claim 1 (claims[0]) stands behind fact ${doc.claims[0]!.fact_id}, which this file does not hold: the file is incomplete or was edited`;
    const refused = { valid: false, error: words, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 };
    expect(previewImport(db, cut)).toEqual(refused);
    // The screen's preview reads the uploaded file record by record (pretty, as export writes it) or, on one line, whole.
    const dir = newDir();
    for (const [name, text] of [
      ['cut.json', JSON.stringify(cut, null, 2)],
      ['cut-one-line.json', JSON.stringify(cut)],
    ] as const) {
      writeFileSync(join(dir, name), text);
      expect(await previewImportFile(db, join(dir, name), { label: name })).toEqual(refused);
    }
    // The import refuses it in the same words, and writes nothing.
    const target = openMemory({ dataDir: newDir() });
    try {
      expect(() => target.transfer.import(cut)).toThrow(words);
      expect(target.transfer.export().conversations).toEqual([]);
    } finally {
      target.close();
    }
    // A claim behind an old version of a fact: the preview says what the import says.
    const edited = structuredClone(doc);
    const old = edited.facts.find((f) => f.id === edited.claims[1]!.fact_id)!;
    old.expired_at = '2026-10-02T00:00:00.000Z';
    const oldWords = `claim 2 (claims[1]) stands behind fact ${old.id}, an old version of a fact (replaced at ${old.expired_at}): only the facts held now have claims, so the file was edited`;
    expect(previewImport(db, edited)).toMatchObject({ valid: false, error: oldWords });
  });

  it('refuses what the import refuses beyond the claims, in the same words: an entity, episode or fact the file lacks, an end before its start', async () => {
    const { doc } = storeWithExport();
    const emptyDir = newDir();
    const empty = plainConnection(openMemory({ dataDir: emptyDir }), emptyDir);
    const cuts: [string, (d: MemoryExport) => void][] = [
      ['an entity', (d) => d.entities.splice(d.entities.findIndex((e) => e.id === d.facts[0]!.subject_id), 1)],
      ['an episode', (d) => (d.episodes = [])],
      ['the fact that closed it', (d) => (d.facts[d.facts.findIndex((f) => f.invalidated_by !== null)]!.invalidated_by = 'fact_gone')],
      ['an end before its start', (d) => (d.facts[0]!.invalid_at = '2000-01-01T00:00:00.000Z')],
    ];
    const dir = newDir();
    for (const [what, cut] of cuts) {
      const edited = structuredClone(doc);
      cut(edited);
      const target = openMemory({ dataDir: newDir() });
      let words = '';
      try {
        target.transfer.import(edited);
      } catch (error) {
        words = (error as Error).message;
      } finally {
        target.close();
      }
      expect(words, what).not.toBe('');
      const refused = { valid: false, error: words, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 };
      expect(previewImport(empty, edited), what).toEqual(refused);
      writeFileSync(join(dir, 'cut.json'), JSON.stringify(edited, null, 2));
      expect(await previewImportFile(empty, join(dir, 'cut.json'), { label: 'cut.json' }), what).toEqual(refused);
    }
  });

  it('an invalid document gives valid: false, zero counts and an error naming the field', () => {
    const { db, doc } = storeWithExport();
    const bad = JSON.parse(JSON.stringify(doc)) as Record<string, unknown[]>;
    (bad.facts![0] as Record<string, unknown>).cardinality = 'several';
    const preview = previewImport(db, bad);
    expect(preview).toMatchObject({ valid: false, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 });
    expect(preview.error).toMatch(/^not a valid Tempora export: facts\.0\.cardinality: /);
    expect(previewImport(db, { format: 'something else' })).toMatchObject({ valid: false, error: 'not a Tempora memory export: its "format" is "something else", and an export\'s is "tempora.memory"' });
    // A file of something else says so in one plain sentence: what every export has.
    expect(previewImport(db, { nope: 1 })).toMatchObject({ valid: false, error: 'not a Tempora memory export: it has no "format": "tempora.memory", which every export has' });
  });
});

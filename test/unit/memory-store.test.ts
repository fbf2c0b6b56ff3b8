import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { databaseOf } from '../../electron/memory/memory';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const T = (d: string): IsoTime => toIsoUtc(`${d}T00:00:00.000Z`);

function memory(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
}

function seed(m: Memory) {
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' }]);
}

describe('memory store', () => {
  it('answers the seed example on both axes and loses nothing', () => {
    const m = memory();
    seed(m);
    expect(m.facts.list().map((f) => f.object)).toEqual(['B']);
    const past = m.facts.list({ asOf: T('2026-09-10') });
    expect(past.map((f) => [f.object, f.invalid_at])).toEqual([['A', '2026-09-15T01:00:00.000Z']]);
    const all = m.facts.list({ history: true });
    expect(all).toHaveLength(3); // A open (expired), A closed, B
    const expired = all.find((f) => f.expired_at !== null)!;
    expect(expired.invalid_at).toBeNull();
    const closed = all.find((f) => f.object === 'A' && f.expired_at === null)!;
    expect(closed.supersedes).toBe(expired.id);
    expect(closed.invalidated_by).toBe(m.facts.list()[0]!.id);
    // what the memory held between the two messages: A, open
    const between = m.facts.list({ history: true, knownAt: expired.created_at });
    expect(between.map((f) => [f.object, f.invalid_at])).toEqual([['A', null]]);
  });

  it('sets valid_at from the reference time when the message has no date (rule 2)', () => {
    const m = memory();
    m.facts.observe([{ subject: 'me', predicate: 'lives in', object: 'Tokyo', fact: 'I live in Tokyo.', reference_time: '2026-05-05T12:00:00Z' }]);
    const [fact] = m.facts.list();
    expect(fact!.valid_at).toBe('2026-05-05T12:00:00.000Z');
    expect(fact!.predicate).toBe('lives_in');
    expect(fact!.cardinality).toBe('many');
  });

  it('merges a duplicate and keeps both source episodes', () => {
    const m = memory();
    const a = m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'sushi', fact: 'I like sushi.', reference_time: '2026-09-01T00:00:00Z' }]);
    const b = m.facts.observe([{ subject: 'I', predicate: 'Likes', object: 'Sushi', fact: 'I really like sushi.', reference_time: '2026-09-03T00:00:00Z' }]);
    const facts = m.facts.list();
    expect(facts).toHaveLength(1);
    expect(facts[0]!.episode_ids.sort()).toEqual([...a.episodeIds, ...b.episodeIds].sort());
    expect(b.factsAdded).toBe(0);
    expect(b.factsConfirmed).toBe(1);
  });

  it('edits by writing a new version that supersedes the old one', () => {
    const m = memory();
    seed(m);
    const b = m.facts.list()[0]!;
    const edited = m.facts.edit(b.id, { fact: 'My manager is B (Bob).', valid_at: T('2026-09-12') });
    expect(edited.supersedes).toBe(b.id);
    expect(edited.origin).toBe('user_edit');
    expect(m.facts.get(b.id)!.expired_at).not.toBeNull();
    // the slot follows: A now ends where the edited B starts
    expect(m.facts.list({ asOf: T('2026-09-13') }).map((f) => f.object)).toEqual(['B']);
    expect(m.facts.list({ asOf: T('2026-09-11') }).map((f) => [f.object, f.invalid_at])).toEqual([['A', T('2026-09-12')]]);
    expect(m.facts.provenance(edited.id).versions.map((v) => v.id)).toContain(b.id);
  });

  it('refuses an edit longer than observe allows, naming the field, and changes nothing', () => {
    const m = memory();
    seed(m);
    const b = m.facts.list()[0]!;
    const before = JSON.stringify(m.transfer.export().facts);
    expect(() => m.facts.edit(b.id, { fact: 'x'.repeat(4001) })).toThrow(/fact must be at most 4000 characters/);
    expect(() => m.facts.edit(b.id, { object: 'y'.repeat(2001) })).toThrow(/object must be at most 2000 characters/);
    expect(JSON.stringify(m.transfer.export().facts)).toBe(before);
    // At the limit the edit is stored, and the store's export still imports.
    m.facts.edit(b.id, { fact: 'x'.repeat(4000), object: 'y'.repeat(2000) });
    const copy = memory();
    copy.transfer.import(m.transfer.export());
    expect(copy.facts.list().some((f) => f.object === 'y'.repeat(2000))).toBe(true);
  });

  it('closes a fact at a time and refuses a close before it began', () => {
    const m = memory();
    seed(m);
    const b = m.facts.list()[0]!;
    expect(() => m.facts.close(b.id, T('2026-09-01'))).toThrow(/must be after valid_at/);
    const closed = m.facts.close(b.id, T('2026-09-30'));
    expect(closed.invalid_at).toBe(T('2026-09-30'));
    expect(m.facts.list()).toEqual([]);
    expect(m.facts.list({ asOf: T('2026-09-20') }).map((f) => f.object)).toEqual(['B']);
  });

  it('forgetting the fact that closed another reopens it, and removes it from search', () => {
    const m = memory();
    seed(m);
    const b = m.facts.list()[0]!;
    expect(m.facts.search('changed').length).toBe(1);
    const gone = m.facts.forget(b.id);
    expect(gone.factIds).toContain(b.id);
    expect(m.facts.list().map((f) => [f.object, f.invalid_at])).toEqual([['A', null]]);
    expect(m.facts.search('changed', { history: true })).toEqual([]);
    expect(m.facts.list({ history: true }).some((f) => f.object === 'B')).toBe(false);
    expect(m.transfer.export().facts.every((f) => f.invalidated_by === null || m.facts.get(f.invalidated_by))).toBe(true);
  });

  it('forgets an entity with every fact about it', () => {
    const m = memory();
    seed(m);
    m.facts.observe([{ subject: 'A', predicate: 'works at', object: 'Acme', fact: 'A works at Acme.', reference_time: '2026-09-02T00:00:00Z' }]);
    const acme = databaseOf(m).prepare("SELECT rowid FROM entities WHERE name = 'Acme'").pluck().get();
    // Acme was named by A's fact alone: it goes with A.
    expect(m.facts.forgetEntity('A').entityNames).toEqual(['A', 'Acme']);
    const exported = m.transfer.export();
    expect(exported.entities.some((e) => e.name === 'A' || e.name === 'Acme')).toBe(false);
    expect(exported.facts.some((f) => f.object === 'A' || f.subject === 'A')).toBe(false);
    expect(m.facts.list().map((f) => f.object)).toEqual(['B']);
    // Acme was the newest entity: forgetting it frees its rowid, which the next entity takes, names index included
    m.facts.observe([{ subject: 'B', predicate: 'works at', object: 'Zenith Labs', fact: 'B works at Zenith Labs.', reference_time: '2026-09-03T00:00:00Z' }]);
    expect(databaseOf(m).prepare("SELECT rowid FROM entities WHERE name = 'Zenith Labs'").pluck().get()).toBe(acme);
    databaseOf(m).prepare("INSERT INTO entities_fts (entities_fts) VALUES ('integrity-check')").run();
    const named = (text: string) => databaseOf(m).prepare('SELECT e.name FROM entities_fts JOIN entities e ON e.rowid = entities_fts.rowid WHERE entities_fts MATCH ?').pluck().all(`"${text}"`);
    expect(named('Zenith')).toEqual(['Zenith Labs']);
    expect(named('Acme')).toEqual([]);
  });

  it('forgets an episode with the facts only it supports', () => {
    const m = memory();
    const one = m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-09-01T00:00:00Z' }]);
    const two = m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: '2026-09-02T00:00:00Z' }]);
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'Coffee is my favourite.', reference_time: '2026-09-03T00:00:00Z' }]);
    m.messages.forget(one.episodeIds[0]!);
    m.messages.forget(two.episodeIds[0]!);
    const facts = m.facts.list();
    expect(facts.map((f) => f.object)).toEqual(['coffee']);
    expect(facts[0]!.valid_at).toBe('2026-09-03T00:00:00.000Z');
    expect(m.transfer.export().episodes).toHaveLength(1);
    expect(m.facts.search('tea', { history: true })).toEqual([]);
  });

  it('finds Japanese text by substring, including two-character words', () => {
    const m = memory();
    m.facts.observe([{ subject: '私', predicate: '担当者', object: '佐藤さん', fact: '私の担当者は佐藤さんです。', reference_time: '2026-09-01T00:00:00+09:00', cardinality: 'one' }]);
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'ramen', fact: 'I like ramen.', reference_time: '2026-09-01T00:00:00Z' }]);
    expect(m.facts.search('担当者').map((h) => h.fact.fact)).toEqual(['私の担当者は佐藤さんです。']);
    expect(m.facts.search('担当').map((h) => h.fact.fact)).toEqual(['私の担当者は佐藤さんです。']);
    expect(m.facts.search('佐藤').map((h) => h.parts)).toEqual([expect.objectContaining({ text: 1, entity: 1 })]);
    expect(m.facts.search('ramen')[0]!.fact.fact).toBe('I like ramen.');
    expect(m.facts.search('zzzqqq')).toEqual([]);
  });

  it('search respects as-of', () => {
    const m = memory();
    seed(m);
    expect(m.facts.search('manager').map((h) => h.fact.object)).toEqual(['B']);
    expect(m.facts.search('manager', { asOf: T('2026-09-10') }).map((h) => h.fact.object)).toEqual(['A']);
  });

  it('rejects bad observations naming item and field, and writes nothing', () => {
    const m = memory();
    seed(m);
    const before = JSON.stringify({ ...m.transfer.export(), exported_at: null });
    const good = { subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-09-01T00:00:00Z' };
    expect(() => m.facts.observe([good, { ...good, reference_time: '2026-02-30' }], { where: 'x.jsonl' })).toThrow('x.jsonl:2: reference_time: 2026-02-30 is not a date: February 2026 has 28 days');
    expect(() => m.facts.observe([good, { ...good, cardinality: 'few' }], { where: 'x.jsonl' })).toThrow(/x\.jsonl:2: cardinality/);
    expect(() => m.facts.observe([{ ...good, colour: 'red' }], { where: 'x.jsonl' })).toThrow(/x\.jsonl:1: .*colour/);
    expect(() => m.facts.observe([{ ...good, invalid_at: '2026-08-01' }], { where: 'x.jsonl' })).toThrow(/invalid_at: must be after valid_at/);
    expect(JSON.stringify({ ...m.transfer.export(), exported_at: null })).toBe(before);
  });
});

describe('export and import', () => {
  it('round-trips losslessly and keeps working after import', () => {
    const m = memory();
    seed(m);
    m.facts.observe([{ subject: '私', predicate: '住所', object: '東京', fact: '東京に住んでいます。', reference_time: '2026-09-02T00:00:00+09:00', cardinality: 'one' }]);
    m.facts.edit(m.facts.list({ subject: 'me', predicate: 'manager' })[0]!.id, { fact: 'B is my manager.' });
    const exported = m.transfer.export();
    const copy = memory();
    const summary = copy.transfer.import(JSON.parse(JSON.stringify(exported)));
    expect(summary.facts).toBe(exported.facts.length);
    expect({ ...copy.transfer.export(), exported_at: null }).toEqual({ ...exported, exported_at: null });
    // the imported memory still follows the rules
    copy.facts.observe([{ subject: 'me', predicate: 'manager', object: 'C', fact: 'C is my manager now.', reference_time: '2026-10-01T00:00:00Z', cardinality: 'one' }]);
    expect(copy.facts.list({ asOf: T('2026-09-20'), predicate: 'manager' }).map((f) => [f.object, f.invalid_at])).toEqual([['B', '2026-10-01T00:00:00.000Z']]);
  });

  it('refuses clashing ids unless replace, and bad documents with the path of the fault', () => {
    const m = memory();
    seed(m);
    const exported = m.transfer.export();
    expect(() => m.transfer.import(exported)).toThrow(/already exist.*--replace/);
    expect(m.transfer.import(exported, { replace: true }).replaced).toBeGreaterThan(0);
    expect({ ...m.transfer.export(), exported_at: null }).toEqual({ ...exported, exported_at: null });

    const empty = memory();
    // A document read from a file: any text may stand where a time should.
    const broken: { facts: Record<string, unknown>[] } = structuredClone(exported);
    broken.facts[1]!.valid_at = 'yesterday';
    expect(() => empty.transfer.import(broken)).toThrow(/facts\.1\.valid_at/);
    const dangling = structuredClone(exported);
    dangling.facts[0]!.subject_id = 'ent_missing';
    expect(() => empty.transfer.import(dangling)).toThrow(/facts\.0\.subject_id: unknown entity ent_missing/);
    expect(() => empty.transfer.import({ format: 'something', version: 1 })).toThrow(/format/);
    expect(() => empty.transfer.import({ ...exported, version: 4 })).toThrow(/version/);
    expect(empty.transfer.export().facts).toEqual([]);
  });

  it('into a memory in use, the user and namesakes join the existing entities and their slots follow the rules', () => {
    // the memory on this machine: A has been my manager since 1 Sep; Sato is a colleague
    const here = memory();
    here.facts.observe([
      { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' },
      { subject: 'Sato', predicate: 'works_at', object: 'Acme', fact: 'Sato works at Acme.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' },
    ]);
    // a memory kept elsewhere: B became my manager on 15 Sep; Sato likes tea; I like sushi
    const elsewhere = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-05T00:00:00.000Z', 1000) });
    elsewhere.facts.observe([
      { subject: '私', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T00:00:00Z', cardinality: 'one' },
      { subject: 'sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea.', reference_time: '2026-09-20T00:00:00Z' },
      { subject: 'me', predicate: 'likes', object: 'sushi', fact: 'I like sushi.', reference_time: '2026-09-21T00:00:00Z' },
    ]);
    const doc = elsewhere.transfer.export();
    const summary = here.transfer.import(JSON.parse(JSON.stringify(doc)));
    expect(summary.merged).toBe(2); // me and Sato (A, B, Acme, tea, sushi are new or literals)

    const users = databaseOf(here).prepare("SELECT COUNT(*) AS n FROM entities WHERE type = 'user'").get();
    expect(users).toEqual({ n: 1 });
    expect(databaseOf(here).prepare("SELECT COUNT(*) AS n FROM entities WHERE normalized_name = 'sato'").get()).toEqual({ n: 1 });
    expect(here.entities.find('sato')!.aliases).toEqual([]); // same name: nothing to add
    // one timeline for "my manager": A until B took over on 15 Sep, B now
    expect(here.facts.list({ subject: 'me', predicate: 'manager' }).map((f) => f.object)).toEqual(['B']);
    expect(here.facts.list({ subject: 'me', predicate: 'manager', asOf: T('2026-09-10') }).map((f) => [f.object, f.invalid_at])).toEqual([['A', '2026-09-15T00:00:00.000Z']]);
    expect(here.facts.list({ subject: 'me' }).map((f) => f.object).sort()).toEqual(['B', 'sushi']);
    expect(here.facts.list({ subject: 'Sato' }).map((f) => f.object).sort()).toEqual(['Acme', 'tea']);
    // nothing lost: both messages still back the manager facts
    expect(here.facts.list({ history: true, predicate: 'manager' }).flatMap((f) => f.episode_ids).length).toBeGreaterThanOrEqual(2);
  });

  it('an import keeps every chain of versions and refuses a chain that supersedes itself', () => {
    const m = memory();
    seed(m);
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    m.facts.edit(b.id, { fact: 'My manager is B (Ms. B).' });
    const exported = m.transfer.export();
    const lineages = (x: Memory) => databaseOf(x).prepare('SELECT id, lineage_id FROM facts ORDER BY id').all();
    const copy = memory();
    const cyclic = structuredClone(exported);
    const [first, second] = cyclic.facts;
    first!.supersedes = second!.id;
    second!.supersedes = first!.id;
    expect(() => copy.transfer.import(cyclic)).toThrow(/supersedes forms a cycle/);
    expect(databaseOf(copy).prepare('SELECT COUNT(*) AS n FROM facts').get()).toEqual({ n: 0 });
    copy.transfer.import(exported);
    expect(lineages(copy)).toEqual(lineages(m));
    expect(new Set(lineages(copy).map((r) => (r as { lineage_id: string }).lineage_id)).size).toBe(2); // A's chain and B's chain
  });

  it('a bulk load into an empty store leaves it searchable, indexed and with foreign keys on, also after a refusal', () => {
    const m = memory();
    seed(m);
    m.facts.observe([{ subject: '私', predicate: '担当', object: '経理', fact: '経理を担当しています。', reference_time: '2026-09-02T00:00:00+09:00' }]);
    const exported = m.transfer.export();
    const schema = (x: Memory) => databaseOf(x).prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name").all();
    const copy = memory();
    const before = schema(copy);
    const dangling = structuredClone(exported);
    dangling.facts[0]!.episode_ids = ['epi_missing'];
    expect(() => copy.transfer.import(dangling)).toThrow(/facts\.0\.episode_ids\.0: unknown episode epi_missing/);
    expect(databaseOf(copy).pragma('foreign_keys', { simple: true })).toBe(1);
    copy.transfer.import(exported);
    expect(schema(copy)).toEqual(before);
    expect(databaseOf(copy).pragma('foreign_keys', { simple: true })).toBe(1);
    expect(databaseOf(copy).pragma('foreign_key_check')).toEqual([]);
    expect(databaseOf(copy).prepare('SELECT COUNT(*) AS n FROM fts_queue').get()).toEqual({ n: 0 });
    // facts and episodes are found by full text (trigram and CJK bigram indexes) without a queue flush
    expect(copy.facts.search('担当').map((h) => h.fact.fact)).toContain('経理を担当しています。');
    expect(copy.facts.search('manager changed').length).toBeGreaterThan(0);
    expect(databaseOf(copy).prepare("SELECT COUNT(*) AS n FROM episodes_fts WHERE episodes_fts MATCH '\"経理を担\"'").get()).toEqual({ n: 1 });
    expect(() => databaseOf(copy).prepare("INSERT INTO fact_episodes (fact_id, episode_id) VALUES ('fct_none', 'epi_none')").run()).toThrow(/FOREIGN KEY/);
  });
});

describe('migrations', () => {
  it('run in order once, record the schema version, and refuse a newer database', () => {
    const db = new Database(':memory:');
    expect(migrate(db)).toEqual({ from: 0, to: migrations.length });
    expect(migrate(db)).toEqual({ from: migrations.length, to: migrations.length });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['episodes', 'entities', 'facts', 'claims', 'facts_fts']));
    db.pragma(`user_version = ${migrations.length + 1}`);
    expect(() => migrate(db)).toThrow(/newer Tempora/);
  });

  it('0006 keeps the end_kind check of facts and their rows, without a temporary b-tree per insert', () => {
    const db = new Database(':memory:');
    registerNaturalOrder(db); // as every connection does (open-database.ts): the timeline's triggers call it
    migrate(db, migrations.slice(0, 5));
    db.exec("INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_a', 'A', 'a', 'person', '2026-01-01T00:00:00.000Z')");
    const insert = (id: string, endKind: string) =>
      db.prepare(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
        VALUES (?, ?, 'ent_a', 'likes', 'tea', 'A likes tea.', 'many', '2026-01-01T00:00:00.000Z', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'observed')`).run(id, id, endKind);
    insert('fct_before', 'successor');
    const opcodes = () => db.prepare("EXPLAIN INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin) VALUES ('x', 'x', 'ent_a', 'p', 'o', 'f', 'one', 'v', ?, 'r', 'c', 'observed')").all('open').map((r) => (r as { opcode: string }).opcode);
    expect(opcodes()).toContain('OpenEphemeral');
    expect(migrate(db)).toEqual({ from: 5, to: migrations.length });
    expect(opcodes()).not.toContain('OpenEphemeral');
    expect(db.prepare('SELECT id, end_kind FROM facts').all()).toEqual([{ id: 'fct_before', end_kind: 'successor' }]);
    for (const kind of ['open', 'explicit', 'judged']) insert(`fct_${kind}`, kind);
    expect(() => insert('fct_bad', 'closed')).toThrow(/CHECK constraint failed/);
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('rolls back a failing step whole', () => {
    const db = new Database(':memory:');
    const steps = [
      { name: 'a', up: (d: Database.Database) => d.exec('CREATE TABLE a (x)') },
      { name: 'b', up: (d: Database.Database) => { d.exec('CREATE TABLE b (x)'); throw new Error('boom'); } },
    ];
    expect(() => migrate(db, steps)).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
  });
});

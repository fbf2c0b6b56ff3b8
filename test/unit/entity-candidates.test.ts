/**
 * The stored entities a name in a message may mean (memory.facts.entityCandidates), as entity
 * resolution scores them by bigram Dice after honorifics (entity-resolution.ts). A name of one or
 * two characters after its honorifics ("ヨガ", "Bo", "李さん") holds one bigram at most, so only a
 * stored name or alias of at most four characters after its own honorifics can reach the "ask"
 * threshold (2 / 4 = 0.5), and one of one character only as that character. Those are the
 * candidates, shortest first, whoever was stored first, found by index (migration 0041 keeps them)
 * rather than by a scan of every name.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { registerTextFunctions } from '../../electron/memory/store/database/text-functions';
import { resolveName } from '../../electron/assistant/ingestion/entity-resolution';
import { plansOf } from '../fixtures/query-plans';

describe('entity candidates of a short name', () => {
  let m: Memory;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  });
  afterEach(() => m.close());

  const create = (name: string, aliases: string[] = []) => storeOf(m).entities.create({ name, type: 'other', aliases, summary: '' });
  const names = (key: string) => m.facts.entityCandidates(key).map((e) => e.name);

  it('are the stored names of at most four characters that hold it, shortest first, whoever came first', () => {
    // Eight long names come first: a scan in stored order would stop at them and miss the short ones.
    for (let i = 0; i < 8; i++) create(`ホットヨガスタジオ${i}`);
    create('ヨガ教室');
    create('ヨガ部');
    create('ヨガの教室');
    expect(names('ヨガ')).toEqual(['ヨガ部', 'ヨガ教室']);
    expect(resolveName(m, 'ヨガ')).toMatchObject({ kind: 'ask', candidate: { name: 'ヨガ部' } });
    // From the second or third character too, as a name or an alias; lower case as names are normalised.
    create('山田健太');
    create('Kenta', ['小健太']);
    create('健太郎と山田');
    expect(names('健太')).toEqual(['Kenta', '山田健太']);
    for (let i = 0; i < 8; i++) create(`Bobby Brown ${i}`);
    create('Robert', ['Bo']);
    create('BOB');
    expect(names('Bo')).toEqual(['Robert', 'BOB']);
    expect(resolveName(m, 'Bo')).toMatchObject({ kind: 'existing', entity: { name: 'Robert' } });
  });

  it('are eight at most: the shortest, then the first stored', () => {
    const stored = ['boa', 'bob', 'boc', 'bod', 'boe', 'bof', 'bog', 'boh', 'boi', 'boj'].map((name) => create(name).name);
    create('Bo-chan');
    expect(names('Bo')).toEqual(['Bo-chan', ...stored.slice(0, 7)]);
  });

  it('are found by the name without its honorifics, as the resolver scores it', () => {
    // Stored with a title and no bare alias (the learning's create and sync add none).
    create('Dr. Bo');
    create('田中太郎さん');
    create('山田ちゃん');
    expect(resolveName(m, 'Bo')).toMatchObject({ kind: 'existing', entity: { name: 'Dr. Bo' } });
    expect(resolveName(m, 'Mr. Bo')).toMatchObject({ kind: 'existing', entity: { name: 'Dr. Bo' } });
    expect(names('田中')).toEqual(['田中太郎さん']);
    expect(resolveName(m, '田中さん')).toMatchObject({ kind: 'ask', candidate: { name: '田中太郎さん' } });
    expect(resolveName(m, '山田')).toMatchObject({ kind: 'existing', entity: { name: '山田ちゃん' } });
    expect(resolveName(m, '山田先生')).toMatchObject({ kind: 'existing', entity: { name: '山田ちゃん' } });
  });

  it('of one character are the names that are that character after honorifics, however many start with it', () => {
    // One character scores only as the whole name (entity-resolution.ts): 李白 and 小李 score 0.
    for (const name of ['李白', '李一', '李二', '李三', '李四', '李五', '李六', '李七', '李八', '小李']) create(name);
    create('李さん');
    expect(names('李')).toEqual(['李さん']);
    expect(resolveName(m, '李先生')).toMatchObject({ kind: 'existing', entity: { name: '李さん' } });
    expect(names('%')).toEqual([]);
    expect(names('さん')).toEqual([]);
  });

  it('of three or four characters include the stored names of one or two that hold one of its bigrams', () => {
    // A stored name of two characters has no trigram for the full-text index to find, yet scores
    // 2 / 3 against a name of three holding it, and 2 / 4 against one of four.
    create('Dr. Bo');
    create('ヨガ');
    create('Li');
    expect(resolveName(m, 'Bob')).toMatchObject({ kind: 'ask', candidate: { name: 'Dr. Bo' } });
    expect(resolveName(m, 'ヨガ部')).toMatchObject({ kind: 'ask', candidate: { name: 'ヨガ' } });
    expect(resolveName(m, 'ヨガ教室')).toMatchObject({ kind: 'ask', candidate: { name: 'ヨガ' } });
    expect(names('Bobo')).toEqual(['Dr. Bo']);
    // Five characters: 2 / 5 at best, below the resolver's 0.5: not a candidate.
    expect(names('Bobby')).toEqual([]);
    expect(resolveName(m, 'Bobby')).toEqual({ kind: 'new' });
    expect(names('Lin')).toEqual(['Li']);
  });

  it('follow an entity’s aliases as they are added, rewritten and forgotten', () => {
    const rows = () => databaseOf(m).prepare('SELECT pair, length FROM entity_short_names ORDER BY pair').all();
    const robert = create('Robert');
    expect(names('Bo')).toEqual([]);
    // Five characters or more after honorifics: nothing kept.
    expect(rows()).toEqual([]);
    storeOf(m).entities.addAlias(robert.id, 'Bo-san');
    expect(names('Bo')).toEqual(['Robert']);
    storeOf(m).entities.addAlias(robert.id, 'Dr. Rob');
    expect(rows()).toEqual([{ pair: 'bo', length: 2 }, { pair: 'ob', length: 3 }, { pair: 'ro', length: 3 }]);
    // An import with `replace` rewrites the entity as the document has it.
    const document = m.transfer.export();
    document.entities = document.entities.map((e) => (e.id === robert.id ? { ...e, aliases: ['Rob'] } : e));
    m.transfer.import(document, { replace: true });
    expect(names('Bo')).toEqual([]);
    expect(names('Ro')).toEqual(['Robert']);
    storeOf(m).entities.addAlias(robert.id, 'Bo');
    storeOf(m).entities.delete(robert.id);
    expect(names('Bo')).toEqual([]);
    expect(databaseOf(m).prepare('SELECT count(*) AS n FROM entity_short_names').get()).toEqual({ n: 0 });
  });

  it('of three characters or more are the names sharing a trigram, never the user', () => {
    storeOf(m).entities.findOrCreate('me');
    create('Hanamaru Bakery');
    create('User Group');
    // A misspelt name still shares most of its trigrams with the stored one.
    expect(names('Hanamaru Bakry')).toEqual(['Hanamaru Bakery']);
    // The user's aliases ("user", "myself") share trigrams too; the user is found by its words, not here.
    expect(names('users')).toEqual(['User Group']);
    expect(names('myselves')).toEqual([]);
  });

  it('are found by index, never by reading every name', () => {
    for (let i = 0; i < 50; i++) create(`Person ${i}`);
    const plans = plansOf(databaseOf(m), () => m.facts.entityCandidates('Bo'));
    const lines = plans.flatMap((p) => p.plan);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => /^SCAN (?!json_each)/.test(line))).toEqual([]);
    expect(lines).toContain('SEARCH s USING PRIMARY KEY (pair=? AND length<?)');
  });
});

describe('a store from before the short names were kept (migration 0041)', () => {
  it('has its entities’ short names found once it is opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-short-names-'));
    try {
      const db = new Database(join(dir, 'memory.sqlite'));
      registerTextFunctions(db);
      registerNaturalOrder(db);
      const before = migrations.findIndex((step) => step.name === '0041_entity_short_names');
      expect(before).toBeGreaterThan(0);
      migrate(db, migrations.slice(0, before));
      const entity = db.prepare("INSERT INTO entities (id, name, normalized_name, type, summary, created_at) VALUES (?, ?, ?, 'person', '', '2025-01-01T00:00:00.000Z')");
      const alias = db.prepare('INSERT INTO entity_aliases (entity_id, position, alias, normalized_alias) VALUES (?, ?, ?, ?)');
      entity.run('ent_a', 'Dr. Bo', 'dr. bo');
      entity.run('ent_b', 'Robert', 'robert');
      alias.run('ent_b', 0, 'Bob', 'bob');
      entity.run('ent_c', '李さん', '李さん');
      entity.run('ent_d', 'Bobby Brown', 'bobby brown');
      db.close();
      const m = openMemory({ dataDir: dir });
      try {
        expect(m.facts.entityCandidates('Bo').map((e) => e.name)).toEqual(['Dr. Bo', 'Robert']);
        expect(m.facts.entityCandidates('李').map((e) => e.name)).toEqual(['李さん']);
      } finally {
        m.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

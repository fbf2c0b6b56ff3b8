/**
 * The stored entities a name in a message may mean (memory.facts.entityCandidates), as entity
 * resolution scores them by bigram Dice (entity-resolution.ts): a name of one or two characters
 * after its honorifics ("ヨガ", "Bo", "李さん") shares its one bigram at best, so only a stored name
 * of at most four characters can reach the "ask" threshold (2 / 4 = 0.5). Those are the candidates,
 * shortest first, found through the short names' partial indexes rather than a scan of every name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';
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
    // Eight long names come first: a scan in stored order would stop at them and miss the short one.
    for (let i = 0; i < 8; i++) create(`ホットヨガスタジオ${i}`);
    create('ヨガ教室');
    create('ヨガ部');
    create('ヨガの教室');
    create('Bobby');
    create('Robert', ['Bo']);
    create('BOB');
    expect(names('ヨガ')).toEqual(['ヨガ部', 'ヨガ教室']);
    expect(resolveName(m, 'ヨガ')).toMatchObject({ kind: 'ask', candidate: { name: 'ヨガ部' } });
    // Lower case as names are normalised; an alias counts as the name it is.
    expect(names('Bo')).toEqual(['Robert', 'BOB']);
    expect(resolveName(m, 'Bo')).toMatchObject({ kind: 'existing', entity: { name: 'Robert' } });
    // From the second or third character too, as a name or an alias.
    create('山田健太');
    create('大健太郎');
    create('Kenta', ['小健太']);
    create('健太郎と山田');
    expect(names('健太')).toEqual(['Kenta', '山田健太', '大健太郎']);
  });

  it('of one character, after honorifics, find that one character with its honorifics', () => {
    create('李さん');
    create('李白');
    // One character scores only as the whole name (entity-resolution.ts): never from the second.
    create('小李');
    expect(names('李')).toEqual(['李白', '李さん']);
    expect(resolveName(m, '李先生')).toMatchObject({ kind: 'existing', entity: { name: '李さん' } });
    expect(names('%')).toEqual([]);
    expect(names('さん')).toEqual([]);
  });

  it('are found by index, never by reading every name', () => {
    for (let i = 0; i < 50; i++) create(`Person ${i}`);
    const plans = plansOf(databaseOf(m), () => m.facts.entityCandidates('Bo'));
    const lines = plans.flatMap((p) => p.plan);
    expect(lines.length).toBeGreaterThan(0);
    // Every table is searched by a range of an index; only the hits (h) and the id list are scanned.
    expect(lines.filter((line) => /^SCAN (?!json_each |h$)/.test(line))).toEqual([]);
    for (const index of ['entities_by_name', 'entities_short_from_2', 'entities_short_from_3', 'entity_aliases_by_alias', 'entity_aliases_short_from_2', 'entity_aliases_short_from_3']) {
      expect(lines.some((line) => line.startsWith('SEARCH ') && line.includes(` INDEX ${index} `)), index).toBe(true);
    }
  });
});

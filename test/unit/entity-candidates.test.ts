/**
 * The stored entities a name in a message may mean (text-search/entity-candidates.ts), for names of
 * one or two characters — most Japanese family and given names. Such a name can only be like (by
 * entity-resolution.ts's bigram similarity) a name of at most four characters that holds it, so
 * those are the candidates, found by index: the names that begin with it (佐藤 → 佐藤健), and the
 * three- and four-character names that hold it after their first character (花子 → 山田花子). They
 * were found by reading every entity's names (LIKE '%…%': 11 ms a name at a million facts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { resolveName } from '../../electron/assistant/ingestion/entity-resolution';
import { plansOf } from '../fixtures/query-plans';

const NAMES = ['山田花子', '佐藤健', '小林蓮太', '加藤', '花子の友達の会', 'Teddy', 'Ed', 'Edna', 'Ted'];

describe('candidates for a short name', () => {
  let m: Memory;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    m.facts.observe(NAMES.map((name) => ({ subject: name, predicate: 'knows', object: 'me', fact: `${name} knows me.`, reference_time: '2026-11-01T00:00:00.000Z' })));
  });
  afterEach(() => m.close());

  const names = (name: string) => m.facts.entityCandidates(name).map((e) => e.name).sort();

  it('are the names of at most four characters that begin or end with it', () => {
    expect(names('花子')).toEqual(['山田花子']);
    expect(names('佐藤')).toEqual(['佐藤健']);
    expect(names('佐藤さん')).toEqual(['佐藤健']);
    expect(names('林蓮')).toEqual(['小林蓮太']);
    // In a longer name (花子の友達の会): never like enough.
    expect(names('友達')).toEqual([]);
    expect(names('ed')).toEqual(['Ed', 'Edna', 'Ted']);
    expect(names('加')).toEqual(['加藤']);
  });

  it('lead to the same resolution as before: the same name is the entity, a given name is asked about', () => {
    expect(resolveName(m, '花子')).toMatchObject({ kind: 'ask', candidate: { name: '山田花子' } });
    expect(resolveName(m, '加藤さん')).toMatchObject({ kind: 'existing', entity: { name: '加藤' } });
    expect(resolveName(m, '友達')).toEqual({ kind: 'new' });
  });

  it('are read by index, never by reading every name', () => {
    const plans = plansOf(databaseOf(m), () => m.facts.entityCandidates('花子'));
    const lines = plans.flatMap((p) => p.plan);
    for (const index of ['entities_by_name', 'entities_by_short_name_second', 'entities_by_short_name_third']) expect(lines.some((line) => line.includes(`INDEX ${index} `)), lines.join('\n')).toBe(true);
    expect(lines.filter((line) => /^SCAN (entities|entities_fts|entity_aliases)\b(?!.*INDEX)/.test(line) || /VIRTUAL TABLE INDEX 0:$/.test(line))).toEqual([]);
  });
});

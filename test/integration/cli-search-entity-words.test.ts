/**
 * `tempora search` finds an entity by a word of its name, not by letters inside one: the entity
 * names' trigram index holds "hot" inside "film photography", and a search for "hot spring" listed
 * every film-photography liker (seen in a user's trial). A word's start still counts ("photo"), as
 * does a Japanese name's run (温泉 in 箱根温泉).
 */
import { describe, expect, it } from 'vitest';
import { cliSandbox, runTempora } from './cli-helpers';

const box = cliSandbox('tempora-cli-search-entity-words-');
const tokyo = (...argv: string[]) => runTempora(box.dir, box.clock, argv, { TEMPORA_TZ: 'Asia/Tokyo' });

const likes = (subject: string, object: string, day: string) => ({ subject, predicate: 'likes', object, fact: `${subject} likes ${object}.`, reference_time: `2026-09-${day}T10:00:00+09:00`, cardinality: 'many' });

describe('tempora search: entity names by their words', () => {
  it('"hot spring" finds no film photography; "photo" and 温泉 find their own', () => {
    const lines = [likes('Ken', 'film photography', '01'), likes('Mei', 'film photography', '02'), likes('Aya', '箱根温泉', '03'), likes('Tom', 'hot yoga', '04')];
    expect(tokyo('observe', box.write('seed.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n'))).toMatchObject({ code: 0, err: '' });
    const found = (query: string) => (JSON.parse(tokyo('search', query, '--json').out) as { fact: { fact: string } }[]).map((h) => h.fact.fact).sort();
    expect(found('hot spring')).toEqual(['Tom likes hot yoga.']);
    expect(found('photo')).toEqual(['Ken likes film photography.', 'Mei likes film photography.']);
    expect(found('温泉')).toEqual(['Aya likes 箱根温泉.']);
  });
});

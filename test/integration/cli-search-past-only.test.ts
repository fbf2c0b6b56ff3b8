/**
 * `tempora search` when only another time matches: it says facts that were true before, or will be
 * true later (a plan), do, and how to see them (--history), instead of "No facts match" — a question
 * about the past already finds them.
 */
import { describe, expect, it } from 'vitest';
import { cliSandbox, runTempora } from './cli-helpers';

const box = cliSandbox('tempora-cli-search-past-');
const tokyo = (...argv: string[]) => runTempora(box.dir, box.clock, argv, { TEMPORA_TZ: 'Asia/Tokyo' });

const osaka = { subject: 'me', predicate: 'lives_in', object: '大阪', fact: '私は大阪に住んでいた。', reference_time: '2026-03-01T10:00:00+09:00', valid_at: '2020-04-01T00:00:00+09:00', invalid_at: '2026-03-01T00:00:00+09:00' };
const berlin = { subject: 'me', predicate: 'plans', object: 'Berlin', fact: 'I go to a conference in Berlin.', reference_time: '2026-11-20T10:00:00+09:00', valid_at: '2027-02-10', invalid_at: '2027-02-14' };
const coffee = { subject: 'me', predicate: 'likes', object: 'coffee', object_type: 'literal', fact: 'I like coffee.', reference_time: '2026-09-02T09:00:00+09:00' };

describe('tempora search: only a past fact matches', () => {
  it('says one that was true before does, and that --history shows it', () => {
    const seed = box.write('seed.jsonl', [osaka, coffee].map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(tokyo('observe', seed)).toMatchObject({ code: 0, err: '' });
    expect(tokyo('search', '大阪')).toEqual({ code: 0, err: '', out: 'No facts true now match "大阪"; 1 fact that was true before does: add --history to see it.\n' });
    // --json keeps its shape: the hits, none.
    expect(tokyo('search', '大阪', '--json')).toEqual({ code: 0, err: '', out: '[]\n' });
    expect(tokyo('search', '大阪', '--history').out).toContain('私は大阪に住んでいた。');
    // Nothing at all, as before.
    expect(tokyo('search', 'zebra').out).toBe('No facts match "zebra".\n');
  });

  it('says a plan still to come will be true later, not that it was true before', () => {
    const seed = box.write('seed.jsonl', [osaka, berlin, coffee].map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(tokyo('observe', seed)).toMatchObject({ code: 0, err: '' });
    expect(tokyo('search', 'Berlin')).toEqual({ code: 0, err: '', out: 'No facts true now match "Berlin"; 1 fact that will be true later does: add --history to see it.\n' });
    expect(tokyo('search', 'Berlin', '--history').out).toContain('I go to a conference in Berlin.');
    // Both kinds at once: the past one and the one to come, each said.
    expect(tokyo('search', 'Berlin', '大阪').out).toBe('No facts true now match "Berlin 大阪"; 1 fact that was true before and 1 that will be true later do: add --history to see them.\n');
  });
});

/**
 * `tempora search`, spawned: a memory written in both languages says one place or thing both ways
 * (大阪 / Osaka, 東京 / Tokyo). A question in either finds the facts said in the other, through the
 * words' one-word translations in EDICT's common entries (ja-lexicon.ts `translations`) — also when
 * some fact holds the question's own word, since the other language's rows are the answer's too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchSentences } from '../fixtures/cli-search';
import { openMemory, steppingClock } from '../../electron/memory/index';

let dir: string;

const search = (question: string) => searchSentences(join(dir, 'data'), question, 'Asia/Tokyo', 10);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-both-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string) => memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality: 'many' }]);
  const day = (month: number, i: number) => `2026-${String(month).padStart(2, '0')}-${String(i).padStart(2, '0')}T09:00:00+09:00`;
  said('me', 'lives_in', '大阪', '私は大阪に住んでいます。', day(1, 5));
  said('me', 'visited', 'Osaka Castle', 'I visited Osaka Castle with my sister.', day(1, 6));
  said('Ken', 'works_in', 'Tokyo', 'Ken works in Tokyo.', day(1, 7));
  for (let i = 1; i <= 12; i++) {
    said('me', 'mentioned', `本 ${i}`, `私は${i}冊目の本を読んでいる。`, day(2, i));
    said('Ken', 'mentioned', `show ${i}`, `Ken went to comedy show number ${i}.`, day(3, i));
  }
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: one place said in two languages', () => {
  it('"Osaka" finds 大阪 beside the English fact that says Osaka', async () => {
    const found = await search('Osaka');
    expect(found).toContain('I visited Osaka Castle with my sister.');
    expect(found).toContain('私は大阪に住んでいます。');
    // The word as asked first: the translation is weighed lower.
    expect(found.indexOf('I visited Osaka Castle with my sister.')).toBeLessThan(found.indexOf('私は大阪に住んでいます。'));
  });

  it('「東京で働いているのは？」 finds "Ken works in Tokyo."', async () => {
    expect(await search('東京で働いているのは？')).toContain('Ken works in Tokyo.');
  });

  it('a word with no one-word translation brings nothing of the other language', async () => {
    expect(await search('comedy')).not.toContain('私は大阪に住んでいます。');
  });
});

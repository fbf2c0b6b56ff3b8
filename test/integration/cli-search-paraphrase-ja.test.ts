/**
 * `tempora search`, spawned (issue 28, item 6): a question word that none of the named person's
 * facts holds is bridged through EDICT's common words (resources/lexicon, ja-lexicon.ts) — in
 * Japanese, where no WordNet is to be had (踊り → dance → サルサ, オーブン → oven → bake → 焼く), and in
 * English through what qualifies a gloss (dance → "salsa (dance)"). Each person has a dozen facts
 * said after the one asked about, so only the bridge brings it into the first ten.
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
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-paraphrase-ja-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string) => memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality: 'many' }]);
  const day = (month: number, i: number) => `2026-${String(month).padStart(2, '0')}-${String(i).padStart(2, '0')}T09:00:00+09:00`;
  said('杏奈', 'takes_class', 'salsa', '杏奈はサルサ教室に通い始めた。', day(1, 5));
  said('灯里', 'bakes', 'sourdough', '灯里は天然酵母のパンを焼く。', day(1, 6));
  said('Owen', 'takes_class', 'salsa', 'Owen started taking salsa classes.', day(1, 7));
  for (let i = 1; i <= 12; i++) {
    said('杏奈', 'mentioned', `本 ${i}`, `杏奈は${i}冊目の本を読んでいる。`, day(2, i));
    said('灯里', 'mentioned', `映画 ${i}`, `灯里は映画を${i}本見た。`, day(3, i));
    said('Owen', 'mentioned', `show ${i}`, `Owen went to comedy show number ${i}.`, day(4, i));
  }
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: a paraphrase in Japanese, bridged through the lexicon', () => {
  it('「杏奈が習っている踊りは？」 finds her salsa class', async () => {
    expect(await search('杏奈が習っている踊りは？')).toContain('杏奈はサルサ教室に通い始めた。');
  });

  it('「灯里がオーブンで作るものは？」 finds the bread she bakes', async () => {
    expect(await search('灯里がオーブンで作るものは？')).toContain('灯里は天然酵母のパンを焼く。');
  });

  it('"Which dance lessons does Owen go to?" finds his salsa classes', async () => {
    expect(await search('Which dance lessons does Owen go to?')).toContain('Owen started taking salsa classes.');
  });
});

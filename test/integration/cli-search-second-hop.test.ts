/**
 * `tempora search`, spawned (issue 28, second round, item 1): a question that reaches someone
 * through the person it names. "Where does Owen's partner work?" finds "Owen's partner is Ruth" and
 * then Ruth's own workplace — a fact that holds neither "Owen" nor "partner", among twenty other
 * people's workplaces and Owen's own sentences about work. The same in Japanese: 杏奈の妹 is 朔也,
 * and where 朔也 moved.
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
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-hop-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string, cardinality: 'one' | 'many' = 'many') =>
    memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality, object_type: 'entity' }]);
  // Ruth's workplace is told first: every other workplace is newer.
  said('Ruth', 'works_at', 'Cobalt Analytics', 'Ruth works at Cobalt Analytics.', '2025-01-10T09:00:00Z', 'one');
  said('Owen', 'partner', 'Ruth', "Owen's new partner is Ruth.", '2025-02-01T09:00:00Z', 'one');
  for (let i = 1; i <= 20; i++) said(`Person ${i}`, 'works_at', `Company ${i}`, `Person ${i} works at Company ${i}.`, `2025-03-${String(i).padStart(2, '0')}T09:00:00Z`, 'one');
  for (let week = 1; week <= 3; week++) said('Owen', 'said', `remark ${week}`, `Owen said work was tiring in week ${week}.`, `2025-04-0${week}T09:00:00Z`);
  for (const [i, hobby] of ['chess', 'tennis', 'pottery', 'jazz', 'baking'].entries()) said('Owen', 'likes', hobby, `Owen likes ${hobby}.`, `2025-05-0${i + 1}T09:00:00Z`);
  said('朔也', 'lives_in', '熊本', '朔也は先週熊本に引っ越した。', '2025-01-12T09:00:00+09:00', 'one');
  said('杏奈', 'sister', '朔也', '杏奈の妹は朔也だ。', '2025-02-03T09:00:00+09:00', 'one');
  for (let i = 1; i <= 12; i++) said(`人${i}`, 'lives_in', `町${i}`, `人${i}は先週町${i}に引っ越した。`, `2025-03-${String(i).padStart(2, '0')}T09:00:00+09:00`, 'one');
  said('杏奈', 'lives_in', '函館', '杏奈は先週函館に引っ越した。', '2025-06-01T09:00:00+09:00', 'one');
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: the second hop', () => {
  it('"Where does Owen\'s partner work?" finds the partner and the partner\'s workplace', async () => {
    const facts = await search("Where does Owen's partner work?");
    expect(facts).toContain("Owen's new partner is Ruth.");
    expect(facts).toContain('Ruth works at Cobalt Analytics.');
  });

  it('「杏奈の妹はどの町に引っ越した？」 finds the sister and where she moved', async () => {
    const facts = await search('杏奈の妹はどの町に引っ越した？');
    expect(facts).toContain('杏奈の妹は朔也だ。');
    expect(facts).toContain('朔也は先週熊本に引っ越した。');
  });

  it('a question naming no one reached through another brings no second hop', async () => {
    const facts = await search('What does Owen like?');
    expect(facts).not.toContain('Ruth works at Cobalt Analytics.');
  });
});

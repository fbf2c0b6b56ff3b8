/**
 * `tempora search`, spawned (issue 28, second round, item 4): a question word that none of the named
 * person's facts holds is bridged through WordNet among that person's facts, even when other
 * people's facts hold it. "What did Owen purchase?" finds "Owen bought a kayak." though other people
 * "purchased" things and a dozen of Owen's own facts were said after it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchSentences } from '../fixtures/cli-search';
import { openMemory, steppingClock } from '../../electron/memory/index';

let dir: string;

const search = (question: string) => searchSentences(join(dir, 'data'), question, 'Europe/London', 10);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-paraphrase-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string) => memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality: 'many' }]);
  said('Owen', 'bought', 'kayak', 'Owen bought a kayak.', '2026-01-05T09:00:00Z');
  for (let i = 1; i <= 12; i++) said('Owen', 'mentioned', `job ${i}`, `Owen mentioned a new job opening ${i}.`, `2026-02-${String(i).padStart(2, '0')}T09:00:00Z`);
  for (const [i, name] of ['Leo', 'Ana', 'Ravi', 'Sofia', 'Tom', 'Yui'].entries()) said(name, 'purchased', `thing ${i}`, `${name} purchased a new thing ${i}.`, `2026-03-0${i + 1}T09:00:00Z`);
  said('Elif', 'volunteers_at', 'animal shelter', 'Elif volunteers at an animal shelter.', '2026-01-06T09:00:00Z');
  for (let i = 1; i <= 12; i++) said('Elif', 'mentioned', `plan ${i}`, `Elif mentioned weekend plan ${i}.`, `2026-04-${String(i).padStart(2, '0')}T09:00:00Z`);
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: a paraphrase about a named person', () => {
  it('"What did Owen purchase?" finds what Owen bought', async () => {
    const facts = await search('What did Owen purchase?');
    expect(facts).toContain('Owen bought a kayak.');
  });

  it('an adjective bridges through its synonyms: "Where does Elif help out unpaid?" finds her volunteering', async () => {
    const facts = await search('Where does Elif help out unpaid?');
    expect(facts).toContain('Elif volunteers at an animal shelter.');
  });
});

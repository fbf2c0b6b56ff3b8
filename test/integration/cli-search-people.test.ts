/**
 * `tempora search`, spawned (issue 28 items 1 and 5): "Where does Zoe work?" finds the fact that is
 * the relation (works at), not the newer sentences that only hold the word ("said work was tiring");
 * "What do Mia and Leo both like?" puts what both like first and draws from both people.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchSentences } from '../fixtures/cli-search';
import { openMemory, steppingClock } from '../../electron/memory/index';

let dir: string;

const search = (question: string) => searchSentences(join(dir, 'data'), question, 'Europe/Lisbon');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-people-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string, cardinality: 'one' | 'many' = 'many') => memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality }]);
  said('Zoe', 'works_at', 'Acme', 'Zoe works at Acme.', '2026-02-01T09:00:00Z', 'one');
  // Said after the workplace, every one of them holding "Zoe" and "work".
  for (let week = 1; week <= 12; week++) said('Zoe', 'said', `remark ${week}`, `Zoe said work was tiring in week ${week}.`, `2026-03-${String(week + 1).padStart(2, '0')}T09:00:00Z`);
  said('Mia', 'likes', 'jazz', 'Mia likes jazz.', '2026-01-01T09:00:00Z');
  said('Leo', 'likes', 'jazz', 'Leo likes jazz.', '2026-01-02T09:00:00Z');
  for (let i = 1; i <= 12; i++) {
    said('Mia', 'likes', `tea ${i}`, `Mia likes tea number ${i}.`, `2026-04-${String(i).padStart(2, '0')}T09:00:00Z`);
    said('Leo', 'likes', `chess ${i}`, `Leo likes chess opening ${i}.`, `2026-05-${String(i).padStart(2, '0')}T09:00:00Z`);
  }
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: people and the relations asked about', () => {
  it('"Where does Zoe work?" ranks "works at" above sentences that only say "work"', async () => {
    const facts = await search('Where does Zoe work?');
    expect(facts[0]).toBe('Zoe works at Acme.');
  });

  it('"What do Mia and Leo both like?" ranks what both like first and draws from both', async () => {
    const facts = await search('What do Mia and Leo both like?');
    expect(facts.slice(0, 2).sort()).toEqual(['Leo likes jazz.', 'Mia likes jazz.']);
    expect(facts.some((f) => f.startsWith('Mia likes tea'))).toBe(true);
    expect(facts.some((f) => f.startsWith('Leo likes chess'))).toBe(true);
  });
});

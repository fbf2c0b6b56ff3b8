/**
 * `tempora search`, spawned (issue 28, second round, item 3): the two-people rule — draw from both,
 * what concerns both first, then each in turn — is for people. A place named beside a person ("What
 * did Mia do in Lisbon?") is no second person: the person's own facts come before other people's
 * trips to the place, which would otherwise take every other place in the list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchSentences } from '../fixtures/cli-search';
import { openMemory, steppingClock } from '../../electron/memory/index';

let dir: string;

const search = (question: string) => searchSentences(join(dir, 'data'), question, 'Europe/Lisbon', 10);

const OTHERS = ['Leo', 'Ana', 'Ravi', 'Sofia'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-place-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-10-01T00:00:00.000Z') });
  const said = (subject: string, predicate: string, object: string, fact: string, at: string) => memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality: 'many' }]);
  // Mia is named by many facts, the place by few: its word weighs more than hers.
  for (let i = 1; i <= 14; i++) said('Mia', 'likes', `hobby ${i}`, `Mia likes hobby number ${i}.`, `2026-01-${String(i).padStart(2, '0')}T09:00:00Z`);
  said('Mia', 'visited', 'Lisbon', 'Mia visited Lisbon in May.', '2026-05-20T09:00:00Z');
  for (const [i, thing] of ['sardines', 'custard tarts', 'a fado night', 'tram 28', 'the castle', 'a surf lesson'].entries()) said('Mia', 'tried', thing, `Mia tried ${thing} on the trip.`, `2026-05-2${i + 1}T10:00:00Z`);
  // Said later, each pointing at the place.
  for (const [i, name] of OTHERS.entries()) said(name, 'visited', 'Lisbon', `${name} visited Lisbon.`, `2026-07-${String(i + 1).padStart(2, '0')}T09:00:00Z`);
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: a place beside a person is no second person', () => {
  it('"What did Mia do in Lisbon?" ranks Mia\'s own facts above other people\'s trips there', async () => {
    const facts = await search('What did Mia do in Lisbon?');
    expect(facts[0]).toBe('Mia visited Lisbon in May.');
    // The six things she did on the trip all make the top 10, and hers come next, not another visit.
    expect(facts.filter((f) => f.endsWith('on the trip.'))).toHaveLength(6);
    expect(facts.slice(1, 4).every((f) => f.startsWith('Mia tried'))).toBe(true);
  });

  it('two people named still draw from both', async () => {
    const facts = await search('Did Mia and Leo both visit Lisbon?');
    expect(facts.slice(0, 2).sort()).toEqual(['Leo visited Lisbon.', 'Mia visited Lisbon in May.']);
  });
});

/**
 * `tempora search`, spawned, ranks by words where they start (issue 28 item 2): "How long has Mia
 * had her current bike?" finds the bike first, not the facts whose "belonging" holds "long" or
 * whose "currently" begins with "current", which the trigram index alone ranked above it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempora } from '../fixtures/cli-search';
import { openMemory, steppingClock } from '../../electron/memory/index';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-search-words-'));
  const memory = openMemory({ dataDir: join(dir, 'data'), clock: steppingClock('2026-06-01T00:00:00.000Z') });
  const at = '2026-03-01T09:00:00Z';
  const fact = (subject: string, predicate: string, object: string, sentence: string) => ({ subject, predicate, object, fact: sentence, reference_time: at });
  memory.facts.observe([
    fact('Mia', 'feels', 'belonging', 'Mia currently feels a real sense of belonging at the climbing gym.'),
    fact('Mia', 'volunteers_at', 'shelter', 'Mia is currently volunteering at the animal shelter, where she feels she belongs.'),
    fact('Mia', 'bakes', 'bread', 'Mia made homemade bread for the long weekend.'),
    fact('Mia', 'owns', 'bike', 'Mia has had her bike since 2021.'),
    fact('Tom', 'owns', 'bike', 'Tom keeps his bike in the hallway.'),
    fact('Ana', 'owns', 'bike', 'Ana rides her bike to work.'),
    fact('Leo', 'sold', 'bike', 'Leo sold his old bike.'),
  ]);
  memory.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora search: words match where words start', () => {
  it('"How long has Mia had her current bike?" ranks the bike first', async () => {
    const run = await tempora(['search', '--data', join(dir, 'data'), '--json', 'How long has Mia had her current bike?'], 'Europe/Lisbon');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const facts = (JSON.parse(run.stdout) as { fact: { fact: string } }[]).map((h) => h.fact.fact);
    expect(facts[0]).toBe('Mia has had her bike since 2021.');
    expect(facts.indexOf('Mia has had her bike since 2021.')).toBeLessThan(facts.indexOf('Mia currently feels a real sense of belonging at the climbing gym.'));
  });
});

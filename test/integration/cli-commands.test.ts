/**
 * The `tempora` command, run in-process through run(argv, io) against temporary data directories,
 * with the memory's clock pinned to 2026-12-01 so that "now" (and so the current facts) is known.
 * test/integration/cli-process.test.ts proves the real binary behaves the same.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTemporaIn } from './cli-helpers';
import { steppingClock, type Clock } from '../../electron/memory/index';
import { factRecord, memoryExport, type FactRecord } from '../../shared/memory-schema';

const NOW = '2026-12-01T00:00:00.000Z';

let dir: string;
let data: string;
let clock: Clock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-'));
  data = join(dir, 'data');
  clock = steppingClock(NOW);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tempora(...argv: string[]): { code: number; out: string; err: string; json<T = unknown>(): T } {
  const result = runTemporaIn(dir, clock, [...argv, '--data', data], { TEMPORA_TZ: 'UTC' });
  return { ...result, json: <T>() => JSON.parse(result.out) as T };
}

function ok(...argv: string[]) {
  const result = tempora(...argv);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  return result;
}

function file(name: string, lines: object[]): string {
  writeFileSync(join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return name;
}

const managerA = { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', valid_at: null, invalid_at: null, cardinality: 'one' };
const managerB = { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' };
const tanaka = { subject: 'me', predicate: '担当者', object: '田中さん', fact: '私の担当者は田中さんです。', reference_time: '2026-09-20T09:00:00+09:00' };
const coffee = { subject: 'me', predicate: 'likes', object: 'coffee', object_type: 'literal', fact: 'I like coffee.', reference_time: '2026-09-02T09:00:00Z' };

const facts = (...argv: string[]) => ok('facts', '--json', ...argv).json<FactRecord[]>();
const objects = (records: FactRecord[]) => records.map((f) => f.object);

describe('tempora observe and facts: the seed example', () => {
  it('answers "now" and "on 10 Sep" from one store, and keeps every version', () => {
    ok('observe', file('a.jsonl', [managerA]));
    const summary = ok('observe', file('b.jsonl', [managerB]), '--json').json<Record<string, unknown>>();
    expect(summary).toMatchObject({ observations: 1, factsAdded: 1, factsClosed: 1 });

    const asOf = facts('--as-of', '2026-09-10');
    expect(objects(asOf)).toEqual(['A']);
    const current = facts();
    expect(objects(current)).toEqual(['B']);
    const b = current[0]!;
    expect(b).toMatchObject({ subject: 'me', predicate: 'manager', valid_at: '2026-09-15T01:00:00.000Z', invalid_at: null, cardinality: 'one' });

    const history = facts('--history');
    for (const record of history) expect(factRecord.safeParse(record).success).toBe(true);
    const versionsOfA = history.filter((f) => f.object === 'A');
    expect(versionsOfA).toHaveLength(2);
    const closed = versionsOfA.find((f) => f.expired_at === null)!;
    expect(closed).toMatchObject({ valid_at: '2026-09-01T01:00:00.000Z', invalid_at: '2026-09-15T01:00:00.000Z', invalidated_by: b.id });
    const original = versionsOfA.find((f) => f.expired_at !== null)!;
    expect(original).toMatchObject({ invalid_at: null, valid_at: '2026-09-01T01:00:00.000Z' });
    expect(closed.supersedes).toBe(original.id);
    expect(asOf[0]!.id).toBe(closed.id);
  });

  it('answers "known at" from what the memory held then', () => {
    ok('observe', file('a.jsonl', [managerA]));
    const [before] = facts();
    ok('observe', file('b.jsonl', [managerB]));
    // Before B was observed, the memory held A as open; now it holds A closed on 15 Sep.
    expect(facts('--known-at', before!.created_at, '--as-of', '2026-09-20')).toMatchObject([{ object: 'A', invalid_at: null }]);
    expect(facts('--as-of', '2026-09-20')).toMatchObject([{ object: 'B' }]);
    expect(facts('--known-at', '2026-01-01', '--history')).toEqual([]);
    // B began at 10:00 on 15 Sep, said with no date (shown "since 15 Sept"): a day asked about means
    // what was true by its end, so 15 Sep is B's and 14 Sep still A's.
    expect(facts('--as-of', '2026-09-15')).toMatchObject([{ object: 'B' }]);
    expect(facts('--as-of', '2026-09-14')).toMatchObject([{ object: 'A' }]);
  });

  it('one file is one write: A is stored closed, once, and nothing is counted as closed', () => {
    const summary = ok('observe', file('seed.jsonl', [managerA, managerB]), '--json').json<Record<string, unknown>>();
    expect(summary).toMatchObject({ observations: 2, factsAdded: 2, factsClosed: 0 });
    expect(facts('--history').map((f) => [f.object, f.invalid_at, f.expired_at])).toEqual([
      ['A', '2026-09-15T01:00:00.000Z', null],
      ['B', null, null],
    ]);
  });

  it('filters by subject, predicate, entity and limit, and prints a readable table', () => {
    ok('observe', file('a.jsonl', [managerA]));
    ok('observe', file('seed.jsonl', [managerB, coffee, tanaka]));
    expect(objects(facts('--predicate', 'manager', '--history')).sort()).toEqual(['A', 'A', 'B']);
    expect(objects(facts('--subject', '私', '--predicate', 'likes'))).toEqual(['coffee']);
    expect(objects(facts('--entity', '田中さん'))).toEqual(['田中さん']);
    expect(facts('--subject', 'nobody')).toEqual([]);
    expect(facts('--history', '--limit', '2')).toHaveLength(2);
    // A list cut by --limit says so; one that fits says only its count.
    expect(ok('facts', '--history', '--limit', '2').out).toMatch(/\nShowing 2 facts; more match \(--limit 2\) \(at any time, every version; times in .+\)\.\n$/);
    expect(ok('facts', '--history', '--limit', '50').out).toMatch(/\n5 facts \(at any time, every version; times in .+\)\.\n$/);

    const table = ok('facts', '--history').out;
    expect(table).toMatch(/^ID\s+SUBJECT\s+PREDICATE\s+OBJECT\s+VALID\s+RECORD\s+FACT$/m);
    // Times in the user's zone (UTC here), at the precision they were said: a start implied by the
    // line's time (no valid_at given) is a day, not the minute the line was written.
    expect(table).toMatch(/manager\s+A\s+1 Sept – 15 Sept 2026\s+current\s+My manager is A\./);
    expect(table).toMatch(/manager\s+B\s+since 15 Sept 2026\s+current/);
    expect(table).toMatch(/expired 1 Dec 2026, 00:00\s+My manager is A\./);
    expect(table).toMatch(/\(at any time, every version; times in UTC\)\.$/m);
    expect(table).toContain('5 facts (at any time, every version; times in UTC).');
    expect(ok('facts', '--as-of', '2026-01-01').out).toBe('No facts (as of 1 Jan 2026, known now).\n');
  });
});

describe('tempora search', () => {
  it('finds Japanese text by a two-character substring, with scores and parts', () => {
    ok('observe', file('seed.jsonl', [managerA, managerB, coffee, tanaka]));
    const hits = ok('search', '担当', '--json').json<{ fact: FactRecord; score: number; parts: Record<string, number> }[]>();
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.fact.fact).toContain('担当者');
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.parts.text).toBe(1);
    expect(ok('search', '担当').out).toMatch(/^1\s+0\.\d{4} text#1.*私の担当者は田中さんです。$/m);
    // Which zone its times are in, as `facts` says it.
    expect(ok('search', '担当').out).toMatch(/\n1 hit for "担当" \(times in [^)]+\)\.\n$/);
    // Not true yet on 10 Sep; the manager then was A.
    expect(ok('search', '担当', '--as-of', '2026-09-10', '--json').json()).toEqual([]);
    expect(objects(ok('search', 'manager', '--as-of', '2026-09-10', '--json').json<{ fact: FactRecord }[]>().map((h) => h.fact))).toEqual(['A']);
    expect(ok('search', 'my', 'manager', '--limit', '1', '--json').json<unknown[]>()).toHaveLength(1);
    expect(ok('search', 'zebra').out).toBe('No facts match "zebra".\n');
  });

  it('gives what the UI and the chat are given: the same retrieval, history when the question asks for it', async () => {
    ok('observe', file('seed.jsonl', [managerA, managerB, coffee, tanaka]));
    const { TemporaEngine, createApiHandlers } = await import('../../electron/engine/index');
    const engine = await TemporaEngine.open({ dataDir: data, autoLoadModels: false, startWorker: false });
    try {
      const handlers = createApiHandlers(engine);
      for (const query of ['manager', 'who was my manager before?', '担当', 'いつから担当者は田中さん？']) {
        const ui = await handlers.search({ query });
        const cli = ok('search', ...query.split(' '), '--json').json<{ fact: FactRecord }[]>();
        expect(cli.map((h) => h.fact.id)).toEqual(ui.hits.map((h) => h.fact.id));
      }
      // "before" asks about the past: the closed fact A comes too, as it would into the chat's context.
      expect(objects(ok('search', 'who', 'was', 'my', 'manager', 'before?', '--json').json<{ fact: FactRecord }[]>().map((h) => h.fact)).sort()).toEqual(['A', 'B']);
    } finally {
      await engine.close();
    }
  });
});

describe('tempora edit, close, show and forget', () => {
  it('edits and closes by writing new versions, and reopens with --invalid-at none', () => {
    ok('observe', file('seed.jsonl', [managerA, managerB]));
    const [b] = facts();
    const edited = ok('edit', b!.id, '--fact', 'My boss is B.', '--valid-at', '2026-09-14', '--json').json<FactRecord>();
    expect(edited).toMatchObject({ fact: 'My boss is B.', valid_at: '2026-09-14T00:00:00.000Z', valid_at_precision: 'day', origin: 'user_edit', supersedes: b!.id, expired_at: null });
    // A is closed again at B's new start.
    expect(facts('--as-of', '2026-09-14T12:00:00Z')).toMatchObject([{ object: 'B', fact: 'My boss is B.' }]);

    const closed = ok('close', b!.id, '--at', '2026-10-01T09:00:00+09:00', '--json').json<FactRecord>();
    expect(closed).toMatchObject({ invalid_at: '2026-10-01T00:00:00.000Z', supersedes: edited.id });
    expect(facts()).toEqual([]);

    const reopened = ok('edit', closed.id, '--invalid-at', 'none').out;
    expect(reopened).toMatch(/^Edited fct_\w+; the new version is fct_\w+:$/m);
    expect(reopened).toMatch(/valid:\s+since 14 Sept 2026$/m);
    expect(objects(facts())).toEqual(['B']);

    // The sentence still says B: a note on stderr says so (issue 13); --json on stdout is unchanged.
    const renaming = tempora('edit', b!.id, '--object', 'C', '--json');
    expect(renaming.code).toBe(0);
    expect(renaming.err).toMatch(/^tempora: note: the sentence still reads "My boss is B\.", which does not say "C"/);
    const renamed = renaming.json<FactRecord>();
    expect(renamed.object).toBe('C');
    expect(facts('--history').filter((f) => f.object === 'B').every((f) => f.expired_at !== null)).toBe(true);
  });

  it('shows a fact with its versions, source messages and what closed it', () => {
    ok('observe', file('a.jsonl', [managerA]));
    ok('observe', file('b.jsonl', [managerB]));
    const [a] = facts('--as-of', '2026-09-10');
    const [b] = facts();
    const provenance = ok('show', a!.id, '--json').json<{ fact: FactRecord; versions: FactRecord[]; episodes: { content: string }[]; closedBy: FactRecord }>();
    expect(provenance.fact.id).toBe(a!.id);
    expect(provenance.versions).toHaveLength(2);
    expect(provenance.episodes.map((e) => e.content)).toEqual(['My manager is A.']);
    expect(provenance.closedBy.id).toBe(b!.id);
    const text = ok('show', a!.id).out;
    expect(text).toContain('Versions (2, oldest first):');
    expect(text).toContain('"My manager is A."');
    expect(text).toContain(`Closed by ${b!.id}: My manager changed to B. (since 15 Sept 2026)`);
    expect(ok('show', provenance.versions[0]!.id).out).toContain(`the current version is ${a!.id}`);
  });

  it('forgets a fact (all versions), an entity, or a message, and reopens what a forgotten fact closed', () => {
    ok('observe', file('a.jsonl', [managerA]));
    ok('observe', file('seed.jsonl', [managerB, coffee, tanaka]));
    const [b] = facts('--predicate', 'manager');
    const forgotB = ok('forget', b!.id, '--json').json<{ factIds: string[]; entityIds: string[]; episodeIds: string[] }>();
    expect(forgotB.factIds).toContain(b!.id);
    expect(facts('--history').some((f) => forgotB.factIds.includes(f.id))).toBe(false);
    // Nothing stays closed by something that no longer exists: A is current again.
    expect(facts('--predicate', 'manager')).toMatchObject([{ object: 'A', invalid_at: null }]);

    const text = ok('forget', '--entity', '田中さん').out;
    expect(text).toMatch(/^Forgot entity "田中さん" \(ent_\w+\): 1 fact version, 1 entity, 0 messages removed\.$/m);
    expect(ok('search', '担当', '--json', '--history').json()).toEqual([]);

    const [like] = facts('--predicate', 'likes');
    const forgotten = ok('forget', '--episode', like!.episode_ids[0]!, '--json').json<{ factIds: string[]; episodeIds: string[] }>();
    expect(forgotten).toMatchObject({ factIds: [like!.id], episodeIds: like!.episode_ids });
    expect(objects(facts('--history'))).toEqual(['A', 'A', 'A']);
  });
});

describe('tempora export and import', () => {
  const withoutTime = (text: string) => {
    const doc = memoryExport.parse(JSON.parse(text));
    return { ...doc, exported_at: undefined };
  };

  it('round-trips: export → import into an empty store → the same export except exported_at', () => {
    ok('observe', file('a.jsonl', [managerA]));
    ok('observe', file('seed.jsonl', [managerB, coffee, tanaka]));
    const [b] = facts('--predicate', 'manager');
    ok('edit', b!.id, '--fact', 'My boss is B.');
    const stdout = ok('export').out;
    expect(stdout).toMatch(/^\{\n {2}"format": "tempora.memory",\n {2}"version": 3,/);
    expect(ok('export', '--out', 'memory.json').out).toMatch(/^Exported 6 fact versions, 4 entities, 4 messages and 2 conversations to memory\.json\.$/m);
    const written = readFileSync(join(dir, 'memory.json'), 'utf8');
    expect(withoutTime(written)).toEqual(withoutTime(stdout));
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'data', 'memory.json', 'seed.jsonl']);

    const original = data;
    data = join(dir, 'copy');
    expect(ok('import', 'memory.json', '--json').json()).toEqual({ conversations: 2, episodes: 4, entities: 4, facts: 6, replaced: 0, merged: 0, queued: 0 });
    expect(withoutTime(ok('export').out)).toEqual(withoutTime(written));

    // Ids that already exist are refused, and nothing changes; --replace overwrites them.
    const refused = tempora('import', 'memory.json');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /^tempora: memory\.json: nothing was imported: 16 records in it already exist in this memory \(the first: cnv_\w+\), so this export, or part of it, looks imported here before; import it with --replace to put the file's versions of those records in place of the ones here\n$/,
    );
    expect(withoutTime(ok('export').out)).toEqual(withoutTime(written));
    expect(ok('import', 'memory.json', '--replace').out).toContain('(16 replaced)');
    expect(withoutTime(ok('export').out)).toEqual(withoutTime(written));
    data = original;
  });

  it('writes --out through a temporary file: a failed write leaves no file and no debris', () => {
    ok('observe', file('seed.jsonl', [managerA]));
    const missingDir = tempora('export', '--out', 'no/such/dir/memory.json');
    expect(missingDir).toMatchObject({ code: 1, err: 'tempora: cannot write no/such/dir/memory.json: no such file or directory\n' });
    const ontoDirectory = tempora('export', '--out', 'data');
    expect(ontoDirectory.code).toBe(1);
    expect(ontoDirectory.err).toMatch(/^tempora: cannot write data: /);
    expect(readdirSync(dir).sort()).toEqual(['data', 'seed.jsonl']);
    ok('export', '--out', 'memory.json');
    writeFileSync(join(dir, 'memory.json'), 'stale');
    expect(ok('export', '--out', 'memory.json', '--json').json()).toMatchObject({ out: 'memory.json', facts: 1, entities: 2 });
    expect(memoryExport.safeParse(JSON.parse(readFileSync(join(dir, 'memory.json'), 'utf8'))).success).toBe(true);
  });
});

describe('tempora help and the data directory', () => {
  it('prints usage for --help, help and help COMMAND', () => {
    const general = ok('--help').out;
    for (const command of ['observe', 'facts', 'search', 'show', 'edit', 'close', 'forget', 'export', 'import']) expect(general).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(ok('help').out).toBe(general);
    expect(ok('help', 'facts').out).toMatch(/^Usage: tempora facts \[--as-of T\] \[--known-at T\]/);
    expect(ok('close', '-h').out).toMatch(/^Usage: tempora close FACT_ID --at T/);
  });

  it('uses $TEMPORA_DATA_DIR when --data is not given', () => {
    writeFileSync(join(dir, 'a.jsonl'), JSON.stringify(managerA));
    const env = { TEMPORA_DATA_DIR: join(dir, 'from-env') };
    expect(runTemporaIn(dir, clock, ['observe', 'a.jsonl'], env).code).toBe(0);
    expect(readdirSync(join(dir, 'from-env'))).toContain('memory.sqlite');
  });
});

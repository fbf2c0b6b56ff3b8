/**
 * `tempora import` of a file it must refuse, said in plain words and changing nothing: a file that
 * is not a Tempora memory export at all (`{"nope": 1}`: what identifies an export is missing), and
 * an export cut down by hand that keeps claims whose facts it lost (the preview says the same words:
 * test/unit/import-preview.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliSandbox, runTempora } from './cli-helpers';
import type { MemoryExport } from '../../shared/memory-schema';

const cli = cliSandbox('tempora-cli-import-');
const { tempora, ok, write, snapshot } = cli;

/** Runs an import that must fail: exit 1, one line on stderr, nothing on stdout, the memory as it was. */
function refused(argv: string[]): string {
  const before = snapshot();
  const result = tempora(...argv);
  expect(result.code).toBe(1);
  expect(result.out).toBe('');
  expect(result.err.trimEnd().split('\n')).toHaveLength(1);
  expect(snapshot()).toEqual(before);
  return result.err;
}

const said = (object: string, day: string) =>
  JSON.stringify({ subject: 'me', predicate: 'lives in', object, fact: `I live in ${object}.`, reference_time: `2026-09-${day}T10:00:00+09:00`, cardinality: 'one' });

describe('tempora import refuses in plain words, and changes nothing', () => {
  beforeEach(() => {
    ok('observe', write('seed.jsonl', `${said('Kyoto', '01')}\n${said('Osaka', '15')}\n`));
  });

  it('an empty file, or one of spaces only, says so (not where its JSON ends)', () => {
    expect(refused(['import', write('empty.json', '')])).toBe('tempora: empty.json: the file is empty (expected a Tempora memory export, one JSON document as tempora export writes it)\n');
    expect(refused(['import', write('blank.json', '\n  \n')])).toBe('tempora: blank.json: the file holds no text but spaces (expected a Tempora memory export, one JSON document as tempora export writes it)\n');
  });

  it('a file that is not a Tempora memory export says so, and what an export has', () => {
    expect(refused(['import', write('bad.json', '{"nope":1}')])).toBe('tempora: bad.json: not a Tempora memory export: it has no "format": "tempora.memory", which every export has\n');
    expect(refused(['import', write('other.json', '{"format":"other","version":3}')])).toBe('tempora: other.json: not a Tempora memory export: its "format" is "other", and an export\'s is "tempora.memory"\n');
    expect(refused(['import', write('list.json', '[1, 2, 3]')])).toBe('tempora: list.json: not a Tempora memory export: it holds a list, and an export is one JSON object with "format": "tempora.memory"\n');
    expect(refused(['import', write('newer.json', '{"format":"tempora.memory","version":9}')])).toBe(
      'tempora: newer.json: a Tempora memory export of version 9, which this Tempora cannot read (it reads versions 1, 2 and 3): a newer Tempora may have written it\n',
    );
    expect(refused(['import', write('no-version.json', '{"format":"tempora.memory","exported_at":"2026-12-01T00:00:00.000Z"}')])).toMatch(/^tempora: no-version\.json: a Tempora memory export without its "version"/);
    // With --replace the same: the words are about the file, not the ids.
    expect(refused(['import', 'bad.json', '--replace'])).toBe('tempora: bad.json: not a Tempora memory export: it has no "format": "tempora.memory", which every export has\n');
  });

  it('an export cut down to one conversation but still holding its claims names the claim and the fact it lacks', () => {
    const doc = JSON.parse(ok('export')) as MemoryExport;
    expect(doc.claims.length).toBeGreaterThan(0);
    const conversation = doc.conversations[0]!;
    const cut = { ...doc, conversations: [conversation], episodes: [], entities: [], facts: [] };
    const first = doc.claims[0]!.fact_id;
    const words = `claim 1 (claims[0]) stands behind fact ${first}, which this file does not hold: the file is incomplete or was edited`;
    // Pretty, as export writes it (read record by record), and on one line (read whole): the same words.
    for (const [name, text] of [
      ['cut.json', JSON.stringify(cut, null, 2)],
      ['cut-one-line.json', JSON.stringify(cut)],
    ] as const) {
      write(name, text);
      expect(refused(['import', name, '--replace'])).toBe(`tempora: ${name}: ${words}\n`);
      // Without --replace the conversation's id already here is what stops it first.
      expect(refused(['import', name])).toMatch(new RegExp(`^tempora: ${name.replace('.', '\\.')}: nothing was imported: 1 record in it already exists in this memory`));
    }
    // Into an empty memory, too.
    const empty = mkdtempSync(join(tmpdir(), 'tempora-cli-import-empty-'));
    try {
      const result = runTempora(empty, cli.clock, ['import', join(cli.dir, 'cut.json')]);
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(`tempora: ${join(cli.dir, 'cut.json')}: ${words}\n`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a claim behind an old version of a fact is named the same way', () => {
    // Said later, a new value closes Osaka: a new version of that fact, the old one kept expired.
    ok('observe', write('later.jsonl', `${said('Nara', '20')}\n`));
    const doc = JSON.parse(ok('export')) as MemoryExport;
    const old = doc.facts.find((f) => f.expired_at !== null);
    expect(old).toBeDefined();
    const edited = structuredClone(doc);
    edited.claims[1]!.fact_id = old!.id;
    write('edited.json', JSON.stringify(edited, null, 2));
    expect(refused(['import', 'edited.json', '--replace'])).toBe(
      `tempora: edited.json: claim 2 (claims[1]) stands behind fact ${old!.id}, an old version of a fact (replaced at ${old!.expired_at}): only the facts held now have claims, so the file was edited\n`,
    );
  });
});

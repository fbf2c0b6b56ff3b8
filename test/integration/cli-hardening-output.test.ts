/**
 * What the command prints and how it reads (issue 13): stored text holding terminal escape sequences
 * is shown escaped to people and exactly in --json; a JSON syntax error in `import` says a line and a
 * column; a hand-edited subject_id that disagrees with the subject's name is refused; `edit --object`
 * without `--fact` says the sentence still names the old object; `--limit -1` says what is wrong.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliSandbox } from './cli-helpers';
import type { FactRecord, MemoryExport } from '../../shared/memory-schema';

const cli = cliSandbox('tempora-cli-output-');
const { tempora, ok } = cli;

function observe(...lines: Record<string, unknown>[]): void {
  const base = { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' };
  writeFileSync(join(cli.dir, 'in.jsonl'), lines.map((l) => JSON.stringify({ ...base, ...l })).join('\n'));
  ok('observe', 'in.jsonl');
}

/** Any byte a terminal acts on: C0 but newline, DEL, C1. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;

describe('stored text cannot drive the terminal', () => {
  const hostile = 'clear\u001b[2J\u001b[H title\u001b]0;pwned\u0007 link\u001b]8;;https://evil.example\u001b\\here\u001b]8;;\u001b\\ csi\u009b31m bell\u0007 nul\u0000 cr\rback\bdel\u007f';
  const entity = 'Evil\u001b[31mCorp\u009b0m';

  beforeEach(() => observe({ subject: entity, predicate: 'motto', object: 'x\u001b[5mblink', object_type: 'literal', fact: hostile, cardinality: 'many' }));

  it('facts, search and show escape control characters in human output', () => {
    const facts = ok('facts');
    const search = ok('search', 'clear');
    const id = (JSON.parse(ok('facts', '--json')) as FactRecord[])[0]!.id;
    const show = ok('show', id);
    for (const out of [facts, search, show]) {
      expect(out).not.toMatch(RAW_CONTROL);
      expect(out).toContain('\\x1b[2J');
      expect(out).toContain('Evil\\x1b[31mCorp\\u009b0m');
    }
    expect(show).toContain('csi\\u009b31m bell\\x07 nul\\x00 cr\\x0dback\\x08del\\x7f');
    expect(show).toContain('\\x1b]8;;https://evil.example');
    expect(show).toContain('Evil\\x1b[31mCorp\\u009b0m');
    expect(show).toContain('x\\x1b[5mblink');
    // The source message too (it was the sentence).
    expect(show.split('Source messages')[1]).not.toMatch(RAW_CONTROL);
  });

  it('--json stays exact', () => {
    const [fact] = JSON.parse(ok('facts', '--json')) as FactRecord[];
    expect(fact!.fact).toBe(hostile);
    expect(fact!.subject).toBe(entity);
    const shown = JSON.parse(ok('show', fact!.id, '--json')) as { fact: FactRecord };
    expect(shown.fact.fact).toBe(hostile);
  });
});

describe('import explains what is wrong with a document', () => {
  it('a JSON syntax error says line and column', () => {
    writeFileSync(join(cli.dir, 'broken.json'), '{\n  "format": "tempora.memory",\n  "version": 2,\n  oops: 1\n}\n');
    const result = tempora('import', 'broken.json');
    expect(result.code).toBe(1);
    expect(result.err).toBe('tempora: broken.json: not JSON (line 4, column 3: a field\'s name must be in double quotes, as "name": value)\n');
    expect(result.err).not.toMatch(/position/);

    writeFileSync(join(cli.dir, 'cut.json'), '{\n  "facts": [\n    {"id": "x"');
    // The end of the text, where more was expected (past the 14 characters of line 3).
    expect(tempora('import', 'cut.json').err).toBe('tempora: cut.json: not JSON (line 3, column 15: the file ends before the JSON value does (a closing quote or brace missing?))\n');

    writeFileSync(join(cli.dir, 'token.json'), '{"a": }');
    expect(tempora('import', 'token.json').err).toBe("tempora: token.json: not JSON (line 1, column 7: unexpected '}' (a value missing before it, or a comma too many?))\n");
  });

  it('a subject_id that disagrees with the subject is refused, naming both; the name may be an alias', () => {
    observe({ subject: 'Tanaka', predicate: 'lives in', object: 'Kyoto' }, { subject: 'Sato', predicate: 'lives in', object: 'Osaka' });
    ok('export', '--out', 'doc.json');
    const doc = JSON.parse(readFileSync(join(cli.dir, 'doc.json'), 'utf8')) as MemoryExport;
    const tanaka = doc.entities.find((e) => e.name === 'Tanaka')!;
    const sato = doc.entities.find((e) => e.name === 'Sato')!;
    const index = doc.facts.findIndex((f) => f.subject === 'Tanaka');
    doc.facts[index]!.subject_id = sato.id;
    writeFileSync(join(cli.dir, 'edited.json'), JSON.stringify(doc));
    rmSync(join(cli.dir, 'data'), { recursive: true });
    const result = tempora('import', 'edited.json');
    expect(result.code).toBe(1);
    expect(result.err).toContain(`facts.${index}.subject: "Tanaka" is not the name of subject_id ${sato.id} (its name is "Sato")`);

    // An alias of the entity is its name too (case and width folded).
    doc.facts[index]!.subject_id = tanaka.id;
    tanaka.aliases.push('田中さん');
    doc.facts[index]!.subject = 'ＴＡＮＡＫＡ';
    writeFileSync(join(cli.dir, 'alias.json'), JSON.stringify(doc));
    expect(tempora('import', 'alias.json')).toMatchObject({ code: 0, err: '' });
  });
});

describe('small words on the command line', () => {
  it('edit --object without --fact says the sentence still names the old object', () => {
    observe({});
    const id = (JSON.parse(ok('facts', '--json')) as FactRecord[])[0]!.id;
    const result = tempora('edit', id, '--object', 'C');
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/^tempora: note: the sentence still reads "My manager is A\.", which does not say "C"; change it too with: tempora edit fct_\w+ --fact TEXT\n$/);
    // With --fact, or when the sentence already says it, there is nothing to say.
    expect(tempora('edit', id, '--object', 'D', '--fact', 'My manager is D.').err).toBe('');
  });

  it('--limit -1 says the number is wrong, not that it is missing', () => {
    observe({});
    for (const value of ['-1', '-5', '0', 'x']) {
      const result = tempora('facts', '--limit', value);
      expect(result.code).toBe(1);
      expect(result.err).toBe(`tempora: --limit: must be a positive whole number, got "${value}"\n`);
    }
    expect(tempora('search', 'manager', '--limit', '-1').err).toBe('tempora: --limit: must be a positive whole number, got "-1"\n');
    // An option after a value-taking option is still an option.
    expect(tempora('facts', '--limit', '--json').err).toMatch(/--limit needs a value/);
  });
});

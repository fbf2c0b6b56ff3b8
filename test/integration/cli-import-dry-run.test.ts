/**
 * `tempora import FILE --dry-run`: the import's own checks, then what importing would add, find here
 * already and join — the Import screen's preview, in the same words — and nothing written: no store
 * made where there was none, the memory unchanged where there is one. A bad file is refused as the
 * import refuses it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { cliSandbox } from './cli-helpers';

const cli = cliSandbox('tempora-cli-import-dry-');
const { ok, write, snapshot } = cli;

/** The preview is a long-running command (it reads the file as the import does): run as the `tempora` binary runs it. */
async function dryRun(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const data = argv.includes('--data') ? [] : ['--data', join(cli.dir, 'data')];
  const code = await runAsync([...argv, ...data], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: cli.dir, env: { TEMPORA_TZ: 'UTC' }, clock: cli.clock });
  return { code, out, err };
}

const said = (object: string, day: string) =>
  JSON.stringify({ subject: 'me', predicate: 'lives in', object, fact: `I live in ${object}.`, reference_time: `2026-09-${day}T10:00:00+09:00`, cardinality: 'one' });

describe('tempora import --dry-run', () => {
  it('into a memory not made yet: what the file holds, all of it new; no store is made', async () => {
    ok('observe', write('seed.jsonl', `${said('Kyoto', '01')}\n${said('Osaka', '15')}\n`));
    ok('export', '--out', 'memory.json');
    const elsewhere = join(cli.dir, 'other');
    const result = await dryRun('import', 'memory.json', '--dry-run', '--data', elsewhere);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toMatch(/^memory\.json holds 2 fact versions, 3 entities, 2 messages and 1 conversation\. All of it is new here: importing adds 8 records\.\nDry run: nothing imported\.\n$/);
    expect(existsSync(elsewhere)).toBe(false);
  });

  it('into the memory it came from: every id is here already, refused unless replaced; nothing changes', async () => {
    ok('observe', write('seed.jsonl', `${said('Kyoto', '01')}\n`));
    ok('export', '--out', 'memory.json');
    const before = snapshot();
    expect(await dryRun('import', 'memory.json', '--dry-run')).toEqual({ code: 0, err: '', out:
      'memory.json holds 1 fact version, 2 entities, 1 message and 1 conversation. All 5 records already exist here (same ids): importing adds nothing new. Import refuses them unless you replace them.\nDry run: nothing imported.\n',
    });
    expect(JSON.parse((await dryRun('import', 'memory.json', '--dry-run', '--json')).out)).toMatchObject({ valid: true, facts: 1, clashes: 5, joins: 0 });
    expect(snapshot()).toEqual(before);
  });

  it('a bad file is refused in words naming the field, exit 1, and changes nothing', async () => {
    ok('observe', write('seed.jsonl', `${said('Kyoto', '01')}\n`));
    ok('export', '--out', 'memory.json');
    const document = JSON.parse(readFileSync(join(cli.dir, 'memory.json'), 'utf8'));
    document.facts[0].valid_at = '2026-02-30T00:00:00.000Z';
    write('bad.json', JSON.stringify(document));
    const before = snapshot();
    const result = await dryRun('import', 'bad.json', '--dry-run');
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    // The import's own words for the same file.
    expect(result.err).toBe(cli.tempora('import', 'bad.json').err);
    expect(result.err).toMatch(/^tempora: bad\.json: .*facts\.0\.valid_at: /);
    expect(snapshot()).toEqual(before);
  });
});

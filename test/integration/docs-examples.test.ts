/**
 * The terminal sessions the README and docs/ show are run, and their output compared with what is
 * shown, so an example cannot drift from the command again. A session is a ```sh block whose lines
 * start with "$ ": `$ export NAME=VALUE …` sets the environment of the lines after it, `$ cat FILE`
 * shows a file the session uses (the test writes it from the lines shown), and `$ npm run --silent
 * tempora -- …` runs as written, through npm, in a fresh directory — its output (stdout, then
 * stderr) must be the lines shown up to the next "$ ", ids aside (each fct_/epi_/ent_/cnv_ id is
 * compared as its kind only). Each session gets its own empty memory ($TEMPORA_DATA_DIR).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'tempora-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Step {
  command: string;
  shown: string[];
}

interface Session {
  where: string;
  steps: Step[];
}

/** Every ```sh block with "$ " lines in these files, each line of it a command or its output. */
function sessions(files: string[]): Session[] {
  const found: Session[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== '```sh') continue;
      const start = i + 1;
      const block: string[] = [];
      for (i = start; i < lines.length && lines[i] !== '```'; i++) block.push(lines[i]!);
      if (!block.some((l) => l.startsWith('$ '))) continue;
      const steps: Step[] = [];
      for (const line of block) {
        if (line.startsWith('$ ')) steps.push({ command: line.slice(2).replace(/\s+#\s.*$/, '').trim(), shown: [] });
        else steps.at(-1)?.shown.push(line);
      }
      found.push({ where: `${file}:${start}`, steps });
    }
  }
  return found;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done) => {
    // --prefix: npm run from the session's own directory, as a user in a checkout's subfolder would.
    execFile('npm', ['--prefix', root, ...args], { cwd, env }, (_error, stdout, stderr) => done(`${stdout}${stderr}`));
  });
}

const ids = (text: string) => text.replace(/\b(fct|epi|ent|cnv)_[0-9a-z]+\b/g, '$1_…');

const documented = sessions(['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]);

describe('the examples in the README and docs/', () => {
  it('has sessions to run', () => {
    expect(documented.length).toBeGreaterThan(0);
  });

  it.each(documented.map((s) => [s.where, s] as const))('%s prints what it shows', async (_where, session) => {
    const dir = mkdtempSync(join(scratch, 'session-'));
    const env: NodeJS.ProcessEnv = { ...process.env, TEMPORA_DATA_DIR: join(dir, 'memory'), LANCEDB_LOG: 'error' };
    for (const name of ['TEMPORA_TZ', 'LANG', 'LC_ALL', 'LC_TIME', 'TEMPORA_DEBUG']) delete env[name];
    for (const { command, shown } of session.steps) {
      const [program, ...args] = command.split(/\s+/);
      if (program === 'export') {
        for (const assignment of args) {
          const [name, value] = assignment.split('=') as [string, string];
          env[name] = value;
        }
      } else if (program === 'cat' && args.length === 1) {
        writeFileSync(join(dir, args[0]!), `${shown.join('\n')}\n`);
      } else if (program === 'npm') {
        expect(ids(await run(args, dir, env)), `${session.where}: $ ${command}`).toBe(ids(`${shown.join('\n')}\n`));
      } else {
        throw new Error(`${session.where}: the test cannot run "$ ${command}" (only export, cat FILE and npm run)`);
      }
    }
  }, 120_000);
});

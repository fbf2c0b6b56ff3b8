/**
 * The `tempora` command for the CLI tests, each way they run it once: in-process against a directory
 * (`runTempora`, `runTemporaIn`, `cliSandbox`), or as its own process from the checkout
 * (`temporaCommand`, `temporaProcess`, and `exitOf` for another program). The tests name their zone.
 */
import { execFile, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { runSync } from '../../electron/cli/run';
import { steppingClock, type Clock } from '../../electron/memory/index';

/** The command in-process with `cwd` as its working directory, the arguments as given. */
export function runTemporaIn(cwd: string, clock: Clock, argv: string[], env: NodeJS.ProcessEnv = { TEMPORA_TZ: 'UTC' }): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runSync(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd, env, clock });
  return { code, out, err };
}

/** The command in-process in `dir`, against `<dir>/data`. */
export function runTempora(dir: string, clock: Clock, argv: string[], env: NodeJS.ProcessEnv = { TEMPORA_TZ: 'UTC' }): { code: number; out: string; err: string } {
  return runTemporaIn(dir, clock, [...argv, '--data', join(dir, 'data')], env);
}

/**
 * A fresh directory (named from `prefix`) and a stepping clock for each test, removed after it; the
 * command in-process there (`tempora`), and the checks the refusal tests share.
 */
export function cliSandbox(prefix: string) {
  let dir = '';
  let clock: Clock;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    clock = steppingClock('2026-12-01T00:00:00.000Z');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const tempora = (...argv: string[]) => runTempora(dir, clock, argv);
  /** Runs a command that must succeed quietly; its stdout. */
  const ok = (...argv: string[]): string => {
    const result = tempora(...argv);
    expect(result).toMatchObject({ code: 0, err: '' });
    return result.out;
  };
  return {
    get dir() {
      return dir;
    },
    get clock() {
      return clock;
    },
    tempora,
    ok,
    /** Writes `text` to `name` in the directory; the name, to give the command. */
    write: (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return name;
    },
    /** The memory's content, as `export` prints it, without the export time. */
    snapshot: (): unknown => {
      const doc = JSON.parse(ok('export')) as Record<string, unknown>;
      delete doc.exported_at;
      return doc;
    },
  };
}

export interface Exit {
  /** The exit status; null when a signal ended the process. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProcessOptions {
  /** Set over this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed ('' closes it at once); without it stdin stays open. */
  input?: string;
  /** Runs it as this user and group. */
  uid?: number;
  gid?: number;
  /** Sees the process as it starts: to read its output as it comes, or to signal it. */
  started?: (child: ChildProcess) => void;
}

const root = resolve(import.meta.dirname, '../..');

/** `file` with `args` run in the checkout: its exit and all it wrote. */
export function exitOf(file: string, args: string[], options: ProcessOptions = {}): Promise<Exit> {
  return new Promise((done) => {
    const { env = {}, input, uid, gid, started } = options;
    const child = execFile(file, args, { cwd: root, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, uid, gid }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : error.signal ? null : 1) : 0, stdout, stderr });
    });
    started?.(child);
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * The real command as another process (`node --import tsx electron/cli/main.ts`, as the user runs
 * it from the checkout). Its environment names the zone it reads times in; `node` options come
 * after `--import tsx`.
 */
export function temporaCommand(args: string[], options: ProcessOptions & { env: NodeJS.ProcessEnv & { TEMPORA_TZ: string }; node?: string[] }): Promise<Exit> {
  return exitOf(process.execPath, ['--import', 'tsx', ...(options.node ?? []), 'electron/cli/main.ts', ...args], options);
}

/**
 * The real command as another process, waited for, with exactly `env` (nothing of this process's
 * own): the agent-config tests give it a home of their own, so no real config of this machine is
 * read or written.
 */
export function temporaSync(args: string[], env: NodeJS.ProcessEnv & { TEMPORA_TZ: string }): { code: number | null; out: string; err: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The real command as another process (the sync tests: Tokyo, no passphrase unless `env` gives one). */
export function temporaProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  return temporaCommand(args, { env: { TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error', TEMPORA_SYNC_PASSPHRASE: '', ...env } });
}

/** The `tempora` command run in-process against `<dir>/data`, or as its own process; its output captured (the CLI tests share it). */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { runSync } from '../../electron/cli/run';
import type { Clock } from '../../electron/memory/index';

export function runTempora(dir: string, clock: Clock, argv: string[], env: NodeJS.ProcessEnv = { TEMPORA_TZ: 'UTC' }): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runSync([...argv, '--data', join(dir, 'data')], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir, env, clock });
  return { code, out, err };
}

export interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

const root = resolve(import.meta.dirname, '../..');

/** The real command as another process (the sync tests: Tokyo, no passphrase unless `env` gives one). */
export function temporaProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Exit> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], { cwd: root, env: { ...process.env, TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error', TEMPORA_SYNC_PASSPHRASE: '', ...env } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

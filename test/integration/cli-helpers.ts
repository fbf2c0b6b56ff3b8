/** The `tempora` command run in-process against `<dir>/data`, its output captured (the CLI tests share it). */
import { join } from 'node:path';
import { runSync } from '../../electron/cli/run';
import type { Clock } from '../../electron/memory/index';

export function runTempora(dir: string, clock: Clock, argv: string[], env: NodeJS.ProcessEnv = { TEMPORA_TZ: 'UTC' }): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runSync([...argv, '--data', join(dir, 'data')], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir, env, clock });
  return { code, out, err };
}

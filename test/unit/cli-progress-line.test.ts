/**
 * The command's progress line (electron/cli/output.ts progressLine): rewritten in place where
 * standard error is a terminal, and nothing at all where it is a log file or a pipe — no carriage
 * returns or erase codes in the user's logs.
 */
import { describe, expect, it } from 'vitest';
import { progressLine, type Io } from '../../electron/cli/output';

function io(terminal: boolean | undefined): Io & { err: string } {
  const out = { err: '' };
  return Object.assign(out, { stdout: () => undefined, stderr: (t: string) => void (out.err += t), cwd: '/', env: {}, ...(terminal === undefined ? {} : { terminal }) });
}

describe('progressLine', () => {
  it('on a terminal: each line rewrites the last, and clearing erases it once', () => {
    const terminal = io(true);
    const line = progressLine(terminal);
    line.show('applying: 1 of 2 segments');
    line.show('applying: 2 of 2 segments');
    expect(line.shown).toBe(true);
    line.clear();
    line.clear();
    expect(terminal.err).toBe('\rapplying: 1 of 2 segments\x1b[K\rapplying: 2 of 2 segments\x1b[K\r\x1b[K');
  });

  it('elsewhere (a log file, a pipe, not said): nothing is written', () => {
    for (const where of [io(false), io(undefined)]) {
      const line = progressLine(where);
      line.show('importing: 5,000 records');
      line.clear();
      expect(line.shown).toBe(false);
      expect(where.err).toBe('');
    }
  });
});

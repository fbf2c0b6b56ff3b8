/**
 * "Put tempora on the PATH" for macOS and Windows, where the package has no /usr/bin/tempora (on
 * Linux the .deb links it): a small launcher written into a folder on the PATH that runs the app's
 * own binary as Node on the built command (ELECTRON_RUN_AS_NODE, as bin/tempora does on Linux, with
 * better-sqlite3 built for that binary) — `tempora` on macOS (a shell script, in /usr/local/bin by
 * default, as VS Code puts `code`), `tempora.cmd` on Windows (in the install folder's bin, which the
 * user adds to the PATH; the answer says whether it is on it). A launcher is written whole and only
 * over one Tempora wrote (it carries a marker line); anything else there is left alone, in words.
 * No electron import: tested with a temporary folder as the target.
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { AppLayout } from './agent-launch';

const MARKER = 'Written by Tempora: its command on the PATH.';

export interface CommandTarget {
  /** The folder to write the launcher into. */
  dir: string;
  /** The PATH it is looked up in (to say whether the folder is on it). */
  path: string | undefined;
}

export interface PutOnPath {
  file: string;
  onPath: boolean;
  /** What was done, in words. */
  message: string;
}

/** Where the launcher goes by default: /usr/local/bin on macOS, <install folder>\bin on Windows. */
export function defaultCommandDir(layout: Pick<AppLayout, 'platform' | 'execPath'>): string {
  return layout.platform === 'win32' ? join(layout.execPath, '..', 'bin') : '/usr/local/bin';
}

/** The launcher's text for the platform. */
export function launcherText(layout: AppLayout, file: string): string {
  const cli = join(layout.appPath, 'out', 'main', 'cli.js');
  if (layout.platform === 'win32') {
    return [
      '@echo off',
      `rem ${MARKER}`,
      'setlocal',
      'set ELECTRON_RUN_AS_NODE=1',
      ...(layout.nativeBinding ? [`set "TEMPORA_SQLITE_BINDING=${layout.nativeBinding}"`] : []),
      'set "TEMPORA_COMMAND=%~f0"',
      `"${layout.execPath}" "${cli}" %*`,
      '',
    ].join('\r\n');
  }
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return [
    '#!/bin/sh',
    `# ${MARKER}`,
    'ELECTRON_RUN_AS_NODE=1',
    `TEMPORA_COMMAND=${quote(file)}`,
    ...(layout.nativeBinding ? [`TEMPORA_SQLITE_BINDING=${quote(layout.nativeBinding)}`, 'export TEMPORA_SQLITE_BINDING'] : []),
    'export ELECTRON_RUN_AS_NODE TEMPORA_COMMAND',
    `exec ${quote(layout.execPath)} ${quote(cli)} "$@"`,
    '',
  ].join('\n');
}

/** Writes (or rewrites) the launcher into target.dir; refuses in words, changing nothing, where it cannot. */
export function putCommandOnPath(layout: AppLayout, target: CommandTarget): PutOnPath {
  if (layout.platform === 'linux') throw new Error('On Linux the package puts tempora on the PATH itself (/usr/bin/tempora from the .deb, bin/tempora in the AppImage’s folder).');
  if (!existsSync(target.dir) || !statSync(target.dir).isDirectory()) throw new Error(`${target.dir} does not exist; make it (or choose another folder on your PATH), then try again.`);
  const file = join(target.dir, layout.platform === 'win32' ? 'tempora.cmd' : 'tempora');
  if (existsSync(file) && !readFileSync(file, 'utf8').includes(MARKER)) {
    throw new Error(`${file} is already there and Tempora did not write it; it was left as it is: move it away, then try again.`);
  }
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, launcherText(layout, file));
    if (layout.platform !== 'win32') chmodSync(partial, 0o755);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') throw new Error(`Tempora may not write into ${target.dir} (it needs an administrator); choose a folder of yours on the PATH, or run it as an administrator.`, {
        cause: error,
      });
    throw error;
  }
  const folders = (target.path ?? '').split(layout.platform === 'win32' ? ';' : delimiter).map((dir) => dir.replace(/[\\/]+$/, ''));
  const onPath = folders.some((dir) => (layout.platform === 'win32' ? dir.toLowerCase() === target.dir.replace(/[\\/]+$/, '').toLowerCase() : dir === target.dir.replace(/\/+$/, '')));
  const message = onPath
    ? `tempora is on your PATH: ${file}. Open a new terminal and run tempora --help.`
    : `Wrote ${file}, but ${target.dir} is not on your PATH: add it, then open a new terminal and run tempora --help.`;
  return { file, onPath, message };
}

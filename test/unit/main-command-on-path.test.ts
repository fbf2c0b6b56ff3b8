/**
 * "Put tempora on the PATH" on macOS and Windows (electron/main/command-on-path.ts), with a temporary
 * folder as the target: the macOS launcher is written executable and, run, starts the app's binary
 * as Node on the built command with every argument as given (here a stand-in binary and command, in
 * folders with spaces and quotes); it says whether the folder is on the PATH; the Windows launcher is
 * a .cmd that does the same; a `tempora` Tempora did not write, a folder that is not there, and Linux
 * (whose package does it itself) are refused in words, changing nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launcherText, putCommandOnPath } from '../../electron/main/command-on-path';

let work: string;
let bin: string;
let appPath: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'tempora-on-path-'));
  bin = join(work, 'local bin');
  appPath = join(work, "Tempora's App", 'Contents', 'Resources', 'app.asar');
  mkdirSync(bin);
  mkdirSync(join(appPath, 'out', 'main'), { recursive: true });
  // The built command's stand-in: says what it was started with.
  writeFileSync(
    join(appPath, 'out', 'main', 'cli.js'),
    'console.log(JSON.stringify({ args: process.argv.slice(2), asNode: process.env.ELECTRON_RUN_AS_NODE, command: process.env.TEMPORA_COMMAND, binding: process.env.TEMPORA_SQLITE_BINDING }));\n',
  );
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const mac = () => ({ isPackaged: true, platform: 'darwin' as const, execPath: process.execPath, appPath, nativeBinding: join(work, 'native', 'better_sqlite3.node') });

describe('putCommandOnPath', () => {
  it('writes an executable launcher on macOS that runs the app as Node on the command, arguments as given', () => {
    const put = putCommandOnPath(mac(), { dir: bin, path: `/usr/bin:${bin}` });
    expect(put).toEqual({ file: join(bin, 'tempora'), onPath: true, message: `tempora is on your PATH: ${join(bin, 'tempora')}. Open a new terminal and run tempora --help.` });
    expect(statSync(put.file).mode & 0o777).toBe(0o755);
    const ran = spawnSync(put.file, ['facts', '--json', "it's a \"quote\""], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual({ args: ['facts', '--json', "it's a \"quote\""], asNode: '1', command: put.file, binding: mac().nativeBinding });
    // Written again over its own launcher: fine.
    expect(putCommandOnPath(mac(), { dir: bin, path: undefined }).onPath).toBe(false);
  });

  it('says when the folder is not on the PATH', () => {
    const put = putCommandOnPath(mac(), { dir: bin, path: '/usr/bin:/bin' });
    expect(put.onPath).toBe(false);
    expect(put.message).toBe(`Wrote ${join(bin, 'tempora')}, but ${bin} is not on your PATH: add it, then open a new terminal and run tempora --help.`);
  });

  it('writes tempora.cmd on Windows, and finds its folder on the PATH whatever the case', () => {
    const win = { isPackaged: true, platform: 'win32' as const, execPath: 'C:\\Users\\me\\AppData\\Local\\Programs\\tempora\\Tempora.exe', appPath: 'C:\\Users\\me\\AppData\\Local\\Programs\\tempora\\resources\\app.asar' };
    const text = launcherText(win, 'C:\\x\\tempora.cmd');
    expect(text.split('\r\n')).toContain('set ELECTRON_RUN_AS_NODE=1');
    expect(text.split('\r\n')).toContain('set "TEMPORA_COMMAND=%~f0"');
    expect(text).toContain(`"${win.execPath}" "${join(win.appPath, 'out', 'main', 'cli.js')}" %*`);
    const put = putCommandOnPath(win, { dir: bin, path: `C:\\Windows;${bin.toUpperCase()}\\` });
    expect(put.file).toBe(join(bin, 'tempora.cmd'));
    expect(put.onPath).toBe(true);
  });

  it('leaves a tempora it did not write alone, and refuses a missing folder and Linux, in words', () => {
    writeFileSync(join(bin, 'tempora'), '#!/bin/sh\necho someone else\n');
    expect(() => putCommandOnPath(mac(), { dir: bin, path: bin })).toThrow(`${join(bin, 'tempora')} is already there and Tempora did not write it; it was left as it is: move it away, then try again.`);
    expect(readFileSync(join(bin, 'tempora'), 'utf8')).toBe('#!/bin/sh\necho someone else\n');
    const missing = join(work, 'nowhere');
    expect(() => putCommandOnPath(mac(), { dir: missing, path: missing })).toThrow(`${missing} does not exist; make it (or choose another folder on your PATH), then try again.`);
    expect(() => putCommandOnPath({ ...mac(), platform: 'linux' }, { dir: bin, path: bin })).toThrow(/^On Linux the package puts tempora on the PATH itself/);
  });
});

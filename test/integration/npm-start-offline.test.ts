/**
 * `npm start` on a machine that cannot reach the download of Electron's binary: one sentence that
 * says so and names the way that needs no Electron (`npm run tempora -- serve`, the app in a
 * browser), never the download library's stack. The binary is made missing whatever this checkout
 * has (ELECTRON_OVERRIDE_DIST_PATH to a path that does not exist) and the download unreachable for
 * certain (a mirror on the reserved .invalid domain, an empty download cache), so nothing is
 * downloaded or written into node_modules.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-start-offline-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function npmStart(): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'no-electron-here'), ELECTRON_MIRROR: 'https://tempora-offline.invalid/', electron_config_cache: join(dir, 'cache') };
  for (const name of ['ELECTRON_EXEC_PATH', 'ELECTRON_SKIP_BINARY_DOWNLOAD', 'TEMPORA_DEBUG', 'npm_config_electron_mirror']) delete env[name];
  return new Promise((done) => {
    execFile('npm', ['run', '--silent', 'start'], { cwd: root, env }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('npm start offline', () => {
  it('says in one sentence that Electron cannot be downloaded, and names the browser way', async () => {
    const start = await npmStart();
    expect(start.code).toBe(1);
    expect(start.stderr).not.toMatch(/ENOTFOUND[^)]*\n\s+at /);
    expect(start.stderr).not.toMatch(/^\s+at /m);
    expect(start.stderr.trim()).toMatch(
      /^ensure-electron: Electron [\d.]+ could not be downloaded: this machine cannot reach tempora-offline\.invalid \(ENOTFOUND\); the app also runs in your browser without Electron: npm run tempora -- serve \(or give a mirror or a cache of the download: ELECTRON_MIRROR, electron_config_cache\)\.$/,
    );
  }, 60_000);
});

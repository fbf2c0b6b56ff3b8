import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronNativeBindingPath, findNativeBinding } from '../../electron/main/native-binding';
import {
  bindingBuildCommands,
  buildEnv,
  electronBindingPath,
  electronVersion,
  installedElectronBinary,
} from '../../scripts/ensure-electron.mjs';

const root = resolve(import.meta.dirname, '../..');
const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-native-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the Electron-ABI better-sqlite3 binding', () => {
  const context = { appPath: '/repo', resourcesPath: '/app/resources', electronVersion: '41.7.1' };

  it('is looked up under build/native in development and resources/native when packaged', () => {
    expect(electronNativeBindingPath({ ...context, isPackaged: false })).toBe(
      join('/repo', 'build', 'native', 'electron-41.7.1', 'better_sqlite3.node'),
    );
    expect(electronNativeBindingPath({ ...context, isPackaged: true })).toBe(
      join('/app/resources', 'native', 'electron-41.7.1', 'better_sqlite3.node'),
    );
  });

  it('is built by ensure-electron exactly where main looks for it', () => {
    const version = electronVersion(root);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect(electronBindingPath(root, version)).toBe(
      electronNativeBindingPath({ isPackaged: false, appPath: root, resourcesPath: '/unused', electronVersion: version }),
    );
  });

  it('is passed only when the file exists', () => {
    const appPath = tempDir();
    const ctx = { isPackaged: false, appPath, resourcesPath: '/unused', electronVersion: '41.7.1' };
    expect(findNativeBinding(ctx)).toBeUndefined();
    const file = electronNativeBindingPath(ctx);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '');
    expect(findNativeBinding(ctx)).toBe(file);
  });

  it('is built for Electron: prebuilt download first, then a compile against Electronʼs headers', () => {
    const [prebuild, gyp] = bindingBuildCommands({
      version: '41.7.1',
      arch: 'x64',
      platform: 'linux',
      prebuildInstall: '/p/bin.js',
      nodeGyp: '/g/node-gyp.js',
    });
    expect(prebuild?.args).toEqual(['/p/bin.js', '--runtime', 'electron', '--target', '41.7.1', '--arch', 'x64', '--platform', 'linux', '--verbose']);
    expect(gyp?.args).toEqual([
      '/g/node-gyp.js',
      'rebuild',
      '--release',
      '--target=41.7.1',
      '--arch=x64',
      '--dist-url=https://electronjs.org/headers',
    ]);
  });

  it('is built without npm settings that would retarget the build at Node', () => {
    const env = buildEnv({ PATH: '/bin', npm_config_nodedir: '/usr', npm_config_target: '20.0.0', NPM_CONFIG_RUNTIME: 'node', npm_config_cache: '/c' });
    expect(env).toEqual({ PATH: '/bin', npm_config_cache: '/c' });
  });
});

describe('the Electron binary check', () => {
  it('finds nothing in a package installed with ELECTRON_SKIP_BINARY_DOWNLOAD', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), '{}');
    expect(installedElectronBinary(dir, '41.7.1', {})).toBeNull();
  });

  it('accepts an installed binary of the right version only', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'path.txt'), 'electron');
    writeFileSync(join(dir, 'dist', 'electron'), '');
    writeFileSync(join(dir, 'dist', 'version'), 'v41.7.1');
    expect(installedElectronBinary(dir, '41.7.1', {})).toBe(join(dir, 'dist', 'electron'));
    expect(installedElectronBinary(dir, '42.0.0', {})).toBeNull();
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const dir = tempDir();
    const override = tempDir();
    writeFileSync(join(override, 'electron'), '');
    expect(installedElectronBinary(dir, '41.7.1', { ELECTRON_OVERRIDE_DIST_PATH: override })).toBe(join(override, 'electron'));
  });
});

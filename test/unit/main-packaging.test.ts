/**
 * The electron-builder configuration (electron-builder.yml), checked without packaging (that needs
 * the Electron binary): it passes electron-builder's own schema validation, keeps every native
 * addon outside the asar, and ships the Electron-ABI better-sqlite3 where main looks for it.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronNativeBindingPath, NATIVE_BINDING_FILE } from '../../electron/main/native-binding';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(join(root, 'package.json'));

interface FileSet {
  from: string;
  to: string;
  filter: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  files: Array<string | FileSet>;
  asar: boolean;
  asarUnpack: string[];
  extraResources: FileSet[];
  npmRebuild: boolean;
  electronFuses: Record<string, boolean>;
}

const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig: (projectDir: string, configPath: string | null, configFromOptions: unknown) => Promise<BuilderConfig>;
  validateConfiguration: (config: unknown, debugLogger: unknown) => Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

const config = await getConfig(root, null, null);

/** Glob (as electron-builder writes them: *, **) to a regular expression over posix paths. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('**')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

function filesUnder(dir: string, test: (name: string) => boolean): string[] {
  const found: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path, test));
    else if (test(entry.name)) found.push(path);
  }
  return found;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, asarUnpak: [] }, new DebugLogger(false))).rejects.toThrow(/unknown property 'asarUnpak'/);
  });

  it('names the app and packs electron-vite’s output into an asar', () => {
    expect(config.appId).toBe('app.tempora.desktop');
    expect(config.productName).toBe('Tempora');
    expect(config.asar).toBe(true);
    // electron-builder normalises the list of globs into file sets.
    const globs = config.files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter));
    expect(globs).toContain('out/**');
  });

  it('keeps every native addon of node-llama-cpp, LanceDB and better-sqlite3 outside the asar', () => {
    const patterns = config.asarUnpack.map(globToRegExp);
    const addons = ['node-llama-cpp', '@node-llama-cpp', '@lancedb', 'better-sqlite3']
      .flatMap((pkg) => filesUnder(join(root, 'node_modules', pkg), (name) => name.endsWith('.node')))
      .map((file) => relative(root, file).split(sep).join('/'));
    expect(addons.length).toBeGreaterThan(2);
    for (const addon of addons) expect(patterns.some((p) => p.test(addon)), addon).toBe(true);
    // The JavaScript that loads them, and node-llama-cpp's llama.cpp builds, go along with them.
    for (const file of ['node_modules/node-llama-cpp/dist/index.js', 'node_modules/@lancedb/lancedb/dist/index.js', 'node_modules/better-sqlite3/lib/index.js']) {
      expect(patterns.some((p) => p.test(file)), file).toBe(true);
    }
  });

  it('ships the Electron-ABI better-sqlite3 where main looks for it in a packaged app', () => {
    const [native] = config.extraResources.filter((set) => set.from === 'build/native');
    expect(native).toBeDefined();
    const version = (require('electron/package.json') as { version: string }).version;
    const built = `electron-${version}/${NATIVE_BINDING_FILE}`; // under build/native, as ensure-electron writes it
    expect(native!.filter.some((f) => globToRegExp(f).test(built))).toBe(true);
    const shipped = join('/resources', native!.to, `electron-${version}`, NATIVE_BINDING_FILE);
    expect(electronNativeBindingPath({ isPackaged: true, appPath: '/unused', resourcesPath: '/resources', electronVersion: version })).toBe(shipped);
    // node_modules stays built for Node: packaging must not rebuild it for Electron.
    expect(config.npmRebuild).toBe(false);
  });

  it('turns off the fuses the app does not need', () => {
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true });
  });
});

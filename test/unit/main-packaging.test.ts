/**
 * The electron-builder configuration (electron-builder.yml), checked without packaging (that needs
 * the Electron binary; test/integration/packaging-layout.test.ts packages against a stand-in): it
 * passes electron-builder's own schema validation, keeps every native addon outside the asar, ships
 * the Electron-ABI better-sqlite3 where main looks for it, leaves other platforms' and CUDA builds
 * out; and the packaging scripts' pure parts (architectures, the sandbox check, icons, afterPack).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronNativeBindingPath, NATIVE_BINDING_FILE } from '../../electron/main/native-binding';
import { unpackedPath } from '../../electron/memory/store/worker-thread';
import { binaryArch, builderArchName, electronArch } from '../../scripts/packaging-arch.mjs';
import { packageProblems } from '../../scripts/packaging-after-pack.mjs';
import { bindingArch, electronViteProblem, installedElectronBinary, sandboxProblem } from '../../scripts/ensure-electron.mjs';
import { encodeIco, encodeIcns, encodePng, renderIcon, writeIcons } from '../../scripts/packaging-icons.mjs';

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
  afterPack: string;
  linux: { executableName: string; icon: string; files?: unknown; extraFiles?: { from: string; to: string }[]; desktop: { entry: Record<string, string> } };
  deb: { afterInstall?: string; afterRemove?: string };
  mac: { icon: string; identity?: string | null; files?: unknown };
  win: { icon: string; files?: unknown };
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

  it('links /usr/bin/tempora in the .deb to the launcher bin/tempora, not to the binary, and unlinks it on removal', () => {
    expect(config.linux.extraFiles).toEqual([{ from: 'resources/packaging/linux/tempora.sh', to: 'bin/tempora' }]);
    const install = readFileSync(join(root, config.deb.afterInstall!), 'utf8');
    const remove = readFileSync(join(root, config.deb.afterRemove!), 'utf8');
    expect(install).toContain("update-alternatives --install '/usr/bin/${executable}' '${executable}' '/opt/${sanitizedProductName}/bin/${executable}' 100");
    expect(install).toContain("ln -sf '/opt/${sanitizedProductName}/bin/${executable}' '/usr/bin/${executable}'");
    expect(install).not.toMatch(/ln -sf '\/opt\/\$\{sanitizedProductName\}\/\$\{executable\}'/);
    expect(install).toContain('chrome-sandbox'); // electron-builder's own steps are kept
    expect(install).toContain('apparmor_parser');
    expect(remove).toContain("update-alternatives --remove '${executable}' '/opt/${sanitizedProductName}/bin/${executable}'");
  });

  it('turns off the fuses the app does not need', () => {
    expect(config.electronFuses).toMatchObject({ runAsNode: true, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true });
  });
});

/** electron-builder's file filter for node_modules (only its `!` patterns apply there), for one target. */
function nodeModulesFilter(os: string, arch: string): (path: string) => boolean {
  const { Minimatch } = require(require.resolve('minimatch', { paths: [require.resolve('app-builder-lib')] })) as {
    Minimatch: new (pattern: string, options: { dot: boolean }) => { negate: boolean; match(path: string): boolean };
  };
  const patterns = config.files
    .flatMap((f) => (typeof f === 'string' ? [f] : f.filter))
    .filter((p) => p.startsWith('!'))
    .map((p) => new Minimatch(p.replaceAll('${os}', os).replaceAll('${arch}', arch), { dot: true }));
  // A negated Minimatch matches what it does not exclude.
  return (path) => patterns.every((p) => p.match(path));
}

describe('what each package carries', () => {
  const llama = Object.keys((JSON.parse(readFileSync(join(root, 'node_modules/node-llama-cpp/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies);
  const lance = Object.keys((JSON.parse(readFileSync(join(root, 'node_modules/@lancedb/lancedb/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies).filter((n) => n.startsWith('@lancedb/'));
  const kept = (os: string, arch: string, names: string[]) => names.filter((name) => nodeModulesFilter(os, arch)(`node_modules/${name}/bin/addon.node`));

  it('keeps only the target’s own node-llama-cpp builds, without CUDA', () => {
    expect(kept('linux', 'x64', llama)).toEqual(['@node-llama-cpp/linux-x64', '@node-llama-cpp/linux-x64-vulkan']);
    expect(kept('linux', 'arm64', llama)).toEqual(['@node-llama-cpp/linux-arm64']);
    expect(kept('mac', 'arm64', llama)).toEqual(['@node-llama-cpp/mac-arm64-metal']);
    expect(kept('mac', 'x64', llama)).toEqual(['@node-llama-cpp/mac-x64']);
    expect(kept('win', 'x64', llama)).toEqual(['@node-llama-cpp/win-x64', '@node-llama-cpp/win-x64-vulkan']);
    expect(kept('win', 'arm64', llama)).toEqual(['@node-llama-cpp/win-arm64']);
  });

  it('keeps only the target architecture’s LanceDB builds', () => {
    expect(kept('linux', 'x64', lance)).toEqual(['@lancedb/lancedb-linux-x64-gnu', '@lancedb/lancedb-linux-x64-musl', '@lancedb/lancedb-win32-x64-msvc']);
    expect(kept('mac', 'arm64', lance)).toContain('@lancedb/lancedb-darwin-arm64');
    expect(kept('mac', 'arm64', lance)).not.toContain('@lancedb/lancedb-linux-x64-gnu');
    // Another OS's build is installed only by a cross-platform npm install; afterPack refuses it.
  });

  it('leaves out sources, build trees and the tools that run the code from source', () => {
    const keep = nodeModulesFilter('linux', 'x64');
    for (const path of ['node_modules/node-llama-cpp/llama/gitRelease.bundle', 'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c', 'node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node_modules/esbuild/bin/esbuild', 'node_modules/tsx/dist/cli.mjs', 'node_modules/zod/index.js.map']) {
      expect(keep(path), path).toBe(false);
    }
    for (const path of ['node_modules/node-llama-cpp/dist/index.js', 'node_modules/better-sqlite3/lib/index.js', 'node_modules/zod/index.js', 'node_modules/node-llama-cpp/llama/binariesGithubRelease.json']) {
      expect(keep(path), path).toBe(true);
    }
  });

  it('has no platform-level "files" (electron-builder would then start from everything)', () => {
    expect([config.linux.files, config.mac.files, config.win.files]).toEqual([undefined, undefined, undefined]);
  });

  it('unpacks the worker threads and their chunks, and worker-thread.ts looks for them there', () => {
    const patterns = config.asarUnpack.map(globToRegExp);
    for (const file of ['out/main/bulk-load-worker.js', 'out/main/segment-check-worker.js', 'out/main/chunks/bulk-load-protocol-abc.js']) expect(patterns.some((p) => p.test(file)), file).toBe(true);
    expect(unpackedPath('/opt/Tempora/resources/app.asar/out/main/bulk-load-worker.js')).toBe('/opt/Tempora/resources/app.asar.unpacked/out/main/bulk-load-worker.js');
    expect(unpackedPath('C:\\Tempora\\resources\\app.asar\\out\\main\\x.js')).toBe('C:\\Tempora\\resources\\app.asar.unpacked\\out\\main\\x.js');
    expect(unpackedPath('/repo/out/main/bulk-load-worker.js')).toBe('/repo/out/main/bulk-load-worker.js');
  });
});

describe('what the installers need', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { homepage?: string; author?: { email?: string }; engines: { node: string } };

  it('gives the deb target a homepage and an author email', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.email).toMatch(/@/);
  });

  it('asks for the Node that vite 8, electron-vite 6 and rolldown need', () => {
    expect(pkg.engines.node).toBe('>=20.19');
  });

  it('re-signs the Mac app ad hoc after the fuses, so it launches unsigned on Apple Silicon', () => {
    expect(config.electronFuses.resetAdHocDarwinSignature).toBe(true);
    // No identity in the config: a real one (CSC_LINK / CSC_NAME) still signs over the ad-hoc one.
    expect(config.mac.identity).toBeUndefined();
  });

  it('names the Linux executable and desktop entry, and points every platform at the generated icons', () => {
    expect(config.linux.executableName).toBe('tempora');
    expect(config.linux.desktop.entry['Name']).toBe('Tempora');
    const dir = mkdtempSync(join(tmpdir(), 'tempora-icons-'));
    try {
      const written = writeIcons(join(dir, 'build', 'icons')).map((f) => relative(dir, f).split(sep).join('/'));
      expect(written).toContain(config.mac.icon);
      expect(written).toContain(config.win.icon);
      expect(written.filter((f) => f.startsWith(`${config.linux.icon}/`))).toContain(`${config.linux.icon}/512x512.png`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the packed app in afterPack', () => {
    expect(config.afterPack).toBe('scripts/packaging-after-pack.mjs');
  });
});

describe('icons', () => {
  it('writes PNG, ICNS and ICO files their readers accept', () => {
    const png = encodePng(16, renderIcon(16));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.readUInt32BE(16)).toBe(16);
    const pixels = renderIcon(64);
    expect(pixels[(32 * 64 + 2) * 4 + 3]).toBe(0); // the corner outside the tile is transparent
    expect(pixels[(8 * 64 + 32) * 4 + 3]).toBe(255); // inside the tile, opaque
    const pngs = { 16: png, 256: encodePng(256, renderIcon(256, 1)) };
    const icns = encodeIcns(pngs);
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.subarray(8, 12).toString('ascii')).toBe('icp4');
    const ico = encodeIco(pngs);
    expect([ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([1, 2]);
    expect(ico[6 + 16]).toBe(0); // 256 px is written as 0
    expect(ico.subarray(ico.readUInt32LE(6 + 16 + 12), ico.readUInt32LE(6 + 16 + 12) + 4).toString('latin1')).toBe('\x89PNG');
  });
});

describe('architectures (scripts/packaging-arch.mjs, ensure-electron)', () => {
  const elf = (machine: number) => {
    const b = Buffer.alloc(64);
    b.writeUInt32BE(0x7f454c46, 0);
    b[5] = 1;
    b.writeUInt16LE(machine, 18);
    return b;
  };
  const macho = (cpu: number) => {
    const b = Buffer.alloc(32);
    b.writeUInt32LE(0xfeedfacf, 0);
    b.writeUInt32LE(cpu, 4);
    return b;
  };
  const pe = (machine: number) => {
    const b = Buffer.alloc(256);
    b.write('MZ', 0, 'latin1');
    b.writeUInt32LE(128, 0x3c);
    b.writeUInt32BE(0x50450000, 128);
    b.writeUInt16LE(machine, 132);
    return b;
  };

  it('reads a binary’s architecture from its header', () => {
    expect(binaryArch(elf(0x3e))).toEqual({ format: 'elf', arch: 'x64' });
    expect(binaryArch(elf(0xb7))).toEqual({ format: 'elf', arch: 'arm64' });
    expect(binaryArch(elf(0x28))).toEqual({ format: 'elf', arch: 'armv7l' });
    expect(binaryArch(macho(0x0100000c))).toEqual({ format: 'macho', arch: 'arm64' });
    expect(binaryArch(macho(0x01000007))).toEqual({ format: 'macho', arch: 'x64' });
    expect(binaryArch(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]))).toEqual({ format: 'macho', arch: 'universal' });
    expect(binaryArch(pe(0x8664))).toEqual({ format: 'pe', arch: 'x64' });
    expect(binaryArch(pe(0xaa64))).toEqual({ format: 'pe', arch: 'arm64' });
    expect(binaryArch(Buffer.from('#!/bin/sh\necho hi\n'))).toBeNull();
    expect(builderArchName(1)).toBe('x64');
    expect(builderArchName(3)).toBe('arm64');
  });

  it('builds better-sqlite3 for the Electron that is installed, not for the Node that runs the script', () => {
    // Rosetta: an x64 Node on Apple Silicon; Electron's installer fetched arm64.
    expect(electronArch({ platform: 'darwin', processArch: 'x64', translated: true })).toBe('arm64');
    expect(electronArch({ platform: 'darwin', processArch: 'x64', translated: false })).toBe('x64');
    expect(electronArch({ platform: 'darwin', processArch: 'x64', translated: true, env: { npm_config_arch: 'x64' } })).toBe('x64');
    expect(electronArch({ platform: 'linux', processArch: 'x64', translated: true })).toBe('x64');
    // The installed binary's own header wins over every guess.
    expect(electronArch({ platform: 'darwin', processArch: 'x64', translated: false, installedBinaryArch: 'arm64' })).toBe('arm64');
    expect(electronArch({ platform: 'darwin', processArch: 'arm64', installedBinaryArch: 'universal' })).toBe('arm64');
    expect(electronArch({ platform: 'linux', processArch: 'x64', env: { npm_config_arch: 'arm64' } })).toBe('arm64');
    // Packaging for another architecture.
    expect(bindingArch({ platform: 'linux', processArch: 'x64', installedBinaryArch: 'x64', env: { TEMPORA_NATIVE_ARCH: 'arm64' } })).toBe('arm64');
  });

  it('says when electron-vite would not find the Electron the install check accepted', () => {
    expect(electronViteProblem({ ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }, '/opt/electron/electron')?.join(' ')).toMatch(/ELECTRON_EXEC_PATH=\/opt\/electron\/electron/);
    expect(electronViteProblem({ ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron', ELECTRON_EXEC_PATH: '/opt/electron/electron' })).toBeNull();
    expect(electronViteProblem({})).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'tempora-electron-'));
    try {
      writeFileSync(join(dir, 'electron'), '');
      expect(installedElectronBinary('/nowhere', '41.0.0', { ELECTRON_EXEC_PATH: join(dir, 'electron') })).toBe(join(dir, 'electron'));
      expect(installedElectronBinary('/nowhere', '41.0.0', { ELECTRON_EXEC_PATH: join(dir, 'missing') })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Ubuntu AppArmor sandbox check (ensure-electron)', () => {
  const restrictedUbuntu = { platform: 'linux', restricted: true, sandbox: { uid: 1000, mode: 0o100755 } };

  it('explains, with the one-line fix, when Chromium’s sandbox cannot start', () => {
    const lines = sandboxProblem(restrictedUbuntu)!;
    expect(lines.join('\n')).toMatch(/apparmor_restrict_unprivileged_userns/);
    expect(lines).toContain('  sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
    expect(sandboxProblem({ ...restrictedUbuntu, sandbox: null })).not.toBeNull();
  });

  it('stays quiet when it will start', () => {
    expect(sandboxProblem({ ...restrictedUbuntu, restricted: false })).toBeNull();
    expect(sandboxProblem({ ...restrictedUbuntu, platform: 'darwin' })).toBeNull();
    expect(sandboxProblem({ ...restrictedUbuntu, sandbox: { uid: 0, mode: 0o104755 } })).toBeNull(); // setuid root helper
    expect(sandboxProblem({ ...restrictedUbuntu, noSandbox: true })).toBeNull();
    expect(sandboxProblem({ ...restrictedUbuntu, profileNamesElectron: true })).toBeNull();
  });
});

describe('afterPack (scripts/packaging-after-pack.mjs)', () => {
  const version = '41.7.1';
  function fakeResources(files: Record<string, Buffer | string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-resources-'));
    for (const [file, data] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), data);
    }
    return dir;
  }
  const elfX64 = Buffer.alloc(64);
  elfX64.writeUInt32BE(0x7f454c46, 0);
  elfX64[5] = 1;
  elfX64.writeUInt16LE(0x3e, 18);
  const good = {
    [`native/electron-${version}/better_sqlite3.node`]: elfX64,
    'app.asar.unpacked/out/main/bulk-load-worker.js': '',
    'app.asar.unpacked/out/main/segment-check-worker.js': '',
    'app.asar.unpacked/node_modules/@node-llama-cpp/linux-x64/bins/a.node': elfX64,
    'app.asar.unpacked/node_modules/@node-llama-cpp/linux-x64-vulkan/bins/a.node': elfX64,
    'app.asar.unpacked/node_modules/@lancedb/lancedb-linux-x64-gnu/a.node': elfX64,
  };

  it('accepts a package with its own binaries', () => {
    const dir = fakeResources(good);
    try {
      expect(packageProblems({ resources: dir, platform: 'linux', arch: 'x64', electronVersion: version })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses another architecture’s addon, foreign or CUDA builds, and a missing worker', () => {
    const dir = fakeResources({
      ...good,
      'app.asar.unpacked/out/main/bulk-load-worker.js': '',
      'app.asar.unpacked/node_modules/@node-llama-cpp/linux-arm64/bins/a.node': elfX64,
      'app.asar.unpacked/node_modules/@node-llama-cpp/linux-x64-cuda/bins/a.node': elfX64,
      'app.asar.unpacked/node_modules/@lancedb/lancedb-win32-x64-msvc/a.node': elfX64,
    });
    try {
      const arm = packageProblems({ resources: dir, platform: 'linux', arch: 'arm64', electronVersion: version });
      expect(arm.join('\n')).toMatch(/better_sqlite3.node is for x64, the package for arm64/);
      const x64 = packageProblems({ resources: dir, platform: 'linux', arch: 'x64', electronVersion: version }).join('\n');
      expect(x64).toMatch(/linux-arm64/);
      expect(x64).toMatch(/linux-x64-cuda/);
      expect(x64).toMatch(/lancedb-win32-x64-msvc/);
      rmSync(join(dir, 'app.asar.unpacked', 'out'), { recursive: true });
      expect(packageProblems({ resources: dir, platform: 'linux', arch: 'x64', electronVersion: '0.0.0' }).join('\n')).toMatch(/missing.*ensure-electron[\s\S]*bulk-load worker[\s\S]*segment-check worker/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

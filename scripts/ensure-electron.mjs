#!/usr/bin/env node
/**
 * Makes the machine ready to run the desktop app (`npm start` runs this first):
 *
 * 1. The Electron binary. `npm ci` with ELECTRON_SKIP_BINARY_DOWNLOAD=1 (as CI does) installs the
 *    electron package without its binary; this downloads it with Electron's own installer.
 * 2. better-sqlite3 for Electron's ABI. node_modules/better-sqlite3/build is built for the Node that
 *    runs the tests and the `tempora` command, and stays untouched. A second build for Electron goes
 *    to build/native/electron-<version>/better_sqlite3.node, made in a temporary copy of the
 *    package: a prebuilt binary (prebuild-install) when one exists, else a compile against
 *    Electron's headers (node-gyp). electron/main/native-binding.ts loads it from there.
 *
 * The addon is built for the architecture Electron runs as (the installed binary's header; under
 * Rosetta an x64 Node gets an arm64 Electron), and rebuilt when the one present is for another.
 * On Linux it warns, before Electron aborts, when Ubuntu's AppArmor (23.10+) blocks Chromium's
 * sandbox, with the one-line fix.
 *
 * Both steps need the internet the first time (github.com, electronjs.org) and do nothing when
 * their result is already present. Exit status 1 with an explanation when a step cannot be done.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronArch, fileArch } from './packaging-arch.mjs';

export const NATIVE_BINDING_FILE = 'better_sqlite3.node';
export const ELECTRON_HEADERS_URL = 'https://electronjs.org/headers';

/**
 * Where the Electron-ABI build of better-sqlite3 goes in a checkout. Keep in sync with
 * electronNativeBindingPath() in electron/main/native-binding.ts (a unit test checks they agree).
 */
export function electronBindingPath(repoRoot, electronVersion) {
  return join(repoRoot, 'build', 'native', `electron-${electronVersion}`, NATIVE_BINDING_FILE);
}

/** The version of the installed electron package. */
export function electronVersion(repoRoot) {
  return JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

/**
 * The Electron executable when it is installed and matches the package version, else null.
 * Mirrors the checks of node_modules/electron/install.js and index.js.
 */
export function installedElectronBinary(electronDir, version, env = process.env) {
  // What electron-vite starts (it reads ELECTRON_EXEC_PATH, never ELECTRON_OVERRIDE_DIST_PATH).
  if (env.ELECTRON_EXEC_PATH) return existsSync(env.ELECTRON_EXEC_PATH) ? env.ELECTRON_EXEC_PATH : null;
  let executable = '';
  try {
    executable = readFileSync(join(electronDir, 'path.txt'), 'utf8');
  } catch {
    // Not installed, unless ELECTRON_OVERRIDE_DIST_PATH points at a binary.
  }
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const overridden = join(env.ELECTRON_OVERRIDE_DIST_PATH, executable || 'electron');
    return existsSync(overridden) ? overridden : null;
  }
  if (!executable) return null;
  try {
    const installedVersion = readFileSync(join(electronDir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
    const binary = join(electronDir, 'dist', executable);
    return installedVersion === version && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/**
 * Why `npm start` would not find the Electron that the install check found, or null. Electron's
 * package honours ELECTRON_OVERRIDE_DIST_PATH, but electron-vite starts ELECTRON_EXEC_PATH (else
 * node_modules/electron/dist): an override alone passes here and fails there.
 */
export function electronViteProblem(env = process.env, binary = null) {
  if (!env.ELECTRON_OVERRIDE_DIST_PATH || env.ELECTRON_EXEC_PATH) return null;
  return [
    `ELECTRON_OVERRIDE_DIST_PATH is set, but electron-vite (npm start, npm run dev) does not read it.`,
    `Set ELECTRON_EXEC_PATH to the Electron executable as well${binary ? `: export ELECTRON_EXEC_PATH=${binary}` : ''}`,
  ];
}

/** The arch better-sqlite3 must be built for: TEMPORA_NATIVE_ARCH, else the arch Electron runs as. */
export function bindingArch({ platform, processArch, env = {}, translated = false, installedBinaryArch = null }) {
  return env.TEMPORA_NATIVE_ARCH || electronArch({ platform, processArch, env, translated, installedBinaryArch });
}

/** On macOS, whether this process runs under Rosetta (sysctl.proc_translated = 1). */
export function runsUnderRosetta(platform = process.platform) {
  if (platform !== 'darwin') return false;
  try {
    return execFileSync('sysctl', ['-in', 'sysctl.proc_translated'], { encoding: 'utf8' }).trim() === '1';
  } catch {
    return false;
  }
}

/**
 * Ubuntu 23.10+ (AppArmor) restricts unprivileged user namespaces, which Chromium's sandbox needs;
 * Chromium then falls back to the setuid chrome-sandbox helper, which in node_modules (and in an
 * AppImage) is not setuid root, and aborts at start. The lines to print, or null when it will start:
 * not Linux, no restriction, a setuid-root helper, --no-sandbox asked for, or an AppArmor profile
 * naming this Electron.
 */
export function sandboxProblem({ platform, restricted, sandbox, noSandbox = false, profileNamesElectron = false }) {
  if (platform !== 'linux' || restricted !== true || noSandbox || profileNamesElectron) return null;
  if (sandbox && sandbox.uid === 0 && (sandbox.mode & 0o4000) !== 0) return null;
  return [
    'This Linux restricts unprivileged user namespaces (AppArmor: kernel.apparmor_restrict_unprivileged_userns = 1,',
    'the default since Ubuntu 23.10), so Electron will abort with a "chrome-sandbox" / "No usable sandbox" error.',
    'The one-line fix, until the next reboot (the README, "Install" › Linux, has the permanent ones):',
    '  sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    'Or allow just this Electron its sandbox helper:',
    '  sudo chown root:root node_modules/electron/dist/chrome-sandbox && sudo chmod 4755 node_modules/electron/dist/chrome-sandbox',
  ];
}

/** The facts sandboxProblem() decides on, read from this machine. */
export function readSandboxFacts(electronBinary, env = process.env) {
  const read = (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  const restricted = read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns')?.trim() === '1';
  let sandbox = null;
  try {
    const stat = statSync(join(dirname(electronBinary), 'chrome-sandbox'));
    sandbox = { uid: stat.uid, mode: stat.mode };
  } catch {
    // no helper: Chromium has nothing to fall back to
  }
  let profileNamesElectron = false;
  try {
    profileNamesElectron = readdirSync('/etc/apparmor.d', { withFileTypes: true }).some((entry) => entry.isFile() && read(join('/etc/apparmor.d', entry.name))?.includes(electronBinary));
  } catch {
    // no AppArmor profiles
  }
  const noSandbox = env.NO_SANDBOX === '1' || /--no-sandbox/.test(env.ELECTRON_CLI_ARGS ?? '');
  return { platform: process.platform, restricted, sandbox, noSandbox, profileNamesElectron };
}

/** The commands that build better-sqlite3 for Electron inside packageDir, in the order tried. */
export function bindingBuildCommands({ version, arch, platform, prebuildInstall, nodeGyp }) {
  return [
    {
      name: 'prebuild-install (download a prebuilt binary from GitHub)',
      args: [prebuildInstall, '--runtime', 'electron', '--target', version, '--arch', arch, '--platform', platform, '--verbose'],
    },
    {
      name: `node-gyp (compile against Electron's headers from ${ELECTRON_HEADERS_URL})`,
      args: [nodeGyp, 'rebuild', '--release', `--target=${version}`, `--arch=${arch}`, `--dist-url=${ELECTRON_HEADERS_URL}`],
    },
  ];
}

/**
 * The environment for the build commands: without npm settings that would silently retarget them
 * (e.g. an .npmrc `nodedir` makes node-gyp compile against the system Node's headers, which would
 * give a Node-ABI binary under the Electron name).
 */
export function buildEnv(env = process.env) {
  const clean = { ...env };
  for (const key of Object.keys(clean)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|platform|build_from_source|devdir)$/i.test(key)) delete clean[key];
  }
  return clean;
}

/** node-gyp's entry script: the one npm runs scripts with, else the one bundled with npm. */
export function findNodeGyp(env = process.env, execPath = process.execPath) {
  const candidates = [
    env.npm_config_node_gyp,
    join(dirname(execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(dirname(execPath), 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((candidate) => candidate && existsSync(candidate)) ?? null;
}

function fail(lines) {
  console.error(`\nensure-electron: ${lines.join('\n  ')}\n`);
  process.exit(1);
}

function warn(lines) {
  console.warn(`\nensure-electron: warning: ${lines.join('\n  ')}\n`);
}

/** The Electron executable, installed when it was missing. */
function ensureElectronBinary(repoRoot, version) {
  const electronDir = join(repoRoot, 'node_modules', 'electron');
  const present = installedElectronBinary(electronDir, version);
  if (present) {
    console.log(`ensure-electron: Electron ${version} is installed (${relative(repoRoot, present)}).`);
    const problem = electronViteProblem(process.env, present);
    if (problem) fail(problem);
    return present;
  }
  console.log(`ensure-electron: the Electron ${version} binary is missing; downloading it (node node_modules/electron/install.js) ...`);
  // install.js does nothing when ELECTRON_SKIP_BINARY_DOWNLOAD is set, which is how it got skipped.
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  // Its errors are read, not passed on: a machine offline gets one sentence, not the download library's stack.
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, env, stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8' });
  const installed = result.status === 0 ? installedElectronBinary(electronDir, version) : null;
  if (installed) return installed;
  const errors = result.stderr ?? '';
  if (env.TEMPORA_DEBUG) process.stderr.write(errors);
  const unreachable = downloadUnreachable(errors);
  if (unreachable) {
    console.error(
      `ensure-electron: Electron ${version} could not be downloaded: this machine cannot reach ${unreachable.host} (${unreachable.code}); ` +
        'the app also runs in your browser without Electron: npm run tempora -- serve (or give a mirror or a cache of the download: ELECTRON_MIRROR, electron_config_cache).',
    );
    process.exit(1);
  }
  if (!env.TEMPORA_DEBUG) process.stderr.write(errors);
  fail([
    `could not install the Electron ${version} binary.`,
    'The desktop app needs it; it is downloaded from GitHub (github.com/electron/electron/releases),',
    'so this machine needs internet access (or a mirror: ELECTRON_MIRROR, or a cache: electron_config_cache).',
    'Retry with `node node_modules/electron/install.js`, then `npm start`.',
    'Without Electron, everything else still works: the app in your browser (`npm run tempora -- serve`), `npm test`,',
    'and the `tempora` command (`npm run tempora -- --help`).',
  ]);
}

/**
 * The host a download could not reach and why (a DNS or connection failure: the machine is offline
 * or behind a firewall), read from what Electron's installer printed; null for any other failure.
 */
export function downloadUnreachable(output) {
  const found = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b(?: ([^\s:]+))?/.exec(output);
  if (!found) return null;
  return { code: found[1], host: found[2] && !/^\d+$/.test(found[2]) ? found[2].replace(/:\d+$/, '') : 'the download server' };
}

function ensureSqliteBinding(repoRoot, version, arch) {
  const target = electronBindingPath(repoRoot, version);
  if (existsSync(target)) {
    const built = fileArch(target)?.arch;
    if (built === arch) {
      console.log(`ensure-electron: better-sqlite3 for Electron ${version} (${arch}) is built (${relative(repoRoot, target)}).`);
      return;
    }
    console.log(`ensure-electron: ${relative(repoRoot, target)} is for ${built ?? 'an unknown architecture'}, Electron runs as ${arch}: rebuilding it.`);
    rmSync(target, { force: true });
  }
  console.log(`ensure-electron: building better-sqlite3 for Electron ${version} (${arch}) into ${relative(repoRoot, target)} ...`);
  const require = createRequire(join(repoRoot, 'package.json'));
  const source = dirname(require.resolve('better-sqlite3/package.json'));
  const prebuildInstall = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  const nodeGyp = findNodeGyp();

  const work = mkdtempSync(join(tmpdir(), 'tempora-better-sqlite3-'));
  const packageDir = join(work, 'better-sqlite3');
  const attempts = [];
  try {
    // A copy without build/: the Node build in node_modules is never touched.
    const sourceBuild = join(source, 'build');
    cpSync(source, packageDir, { recursive: true, filter: (path) => path !== sourceBuild && !path.startsWith(sourceBuild + sep) });
    const built = join(packageDir, 'build', 'Release', NATIVE_BINDING_FILE);
    for (const command of bindingBuildCommands({ version, arch, platform: process.platform, prebuildInstall, nodeGyp })) {
      if (!command.args[0]) {
        attempts.push(`${command.name}: node-gyp not found (install it: npm install -g node-gyp)`);
        continue;
      }
      console.log(`ensure-electron: trying ${command.name} ...`);
      const result = spawnSync(process.execPath, command.args, { cwd: packageDir, env: buildEnv(), stdio: 'inherit' });
      if (result.status === 0 && existsSync(built)) {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(built, target);
        console.log(`ensure-electron: better-sqlite3 for Electron ${version} is ready (${relative(repoRoot, target)}).`);
        return;
      }
      attempts.push(`${command.name}: failed (exit status ${result.status ?? result.signal ?? result.error?.message})`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  fail([
    `could not build better-sqlite3 for Electron ${version} (it must match Electron's ABI, not Node's).`,
    ...attempts.map((attempt) => `- ${attempt}`),
    'The first needs internet access to github.com; the second needs internet access to electronjs.org',
    'plus a C++ toolchain and Python (Debian: apt-get install build-essential python3).',
    `When it works once, the result is kept in ${relative(repoRoot, dirname(target))}/ and this step is skipped.`,
    'The tests, the `tempora` command and the app in your browser (`npm run tempora -- serve`) do not need it:',
    'they use node_modules/better-sqlite3 as built for Node.',
  ]);
}

function main() {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  let version;
  try {
    version = electronVersion(repoRoot);
  } catch {
    fail(['the electron package is not installed; run `npm ci` first.']);
  }
  const binary = ensureElectronBinary(repoRoot, version);
  const arch = bindingArch({
    platform: process.platform,
    processArch: process.arch,
    env: process.env,
    translated: runsUnderRosetta(),
    installedBinaryArch: fileArch(binary)?.arch ?? null,
  });
  if (arch !== process.arch) console.log(`ensure-electron: Electron runs as ${arch} (this Node is ${process.arch}); better-sqlite3 is built for ${arch}.`);
  ensureSqliteBinding(repoRoot, version, arch);
  const sandbox = sandboxProblem(readSandboxFacts(binary));
  if (sandbox) warn(sandbox);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

/**
 * electron-builder's afterPack hook (electron-builder.yml): checks the packed app before it is
 * signed and turned into installers, and stops the build when it would not start or carries what
 * it should not:
 *
 * - better-sqlite3 for Electron's ABI is at <resources>/native/electron-<version>/ (where
 *   electron/main/native-binding.ts looks) and is built for the package's architecture;
 * - node-llama-cpp's binaries are only this OS and architecture's, and no CUDA build;
 * - the bulk-load worker is unpacked beside app.asar (electron/memory/transfer/bulk-load-helper.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { builderArchName, fileArch } from './packaging-arch.mjs';

/** electron-builder's platform names to node-llama-cpp's (and electron-builder's ${os}). */
const OS_NAMES = { linux: 'linux', darwin: 'mac', mas: 'mac', win32: 'win' };

/** Whether a folder holds any file (excluded packages may leave empty folders behind). */
function hasFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) => (entry.isDirectory() ? hasFiles(join(dir, entry.name)) : true));
}

/** Where Electron's resources are inside the packed app. */
export function resourcesDir({ appOutDir, electronPlatformName, productFilename }) {
  return electronPlatformName === 'darwin' || electronPlatformName === 'mas'
    ? join(appOutDir, `${productFilename}.app`, 'Contents', 'Resources')
    : join(appOutDir, 'resources');
}

/** The problems of a packed app's resources folder (empty: none). */
export function packageProblems({ resources, platform, arch, electronVersion }) {
  const problems = [];
  const os = OS_NAMES[platform] ?? platform;
  const nodePlatform = platform === 'mas' ? 'darwin' : platform;
  const binding = join(resources, 'native', `electron-${electronVersion}`, 'better_sqlite3.node');
  if (!existsSync(binding)) {
    problems.push(`${binding} is missing: run \`node scripts/ensure-electron.mjs\` first (it builds better-sqlite3 for Electron ${electronVersion}).`);
  } else {
    const found = fileArch(binding);
    if (found?.arch !== arch) {
      problems.push(
        `${binding} is for ${found ? found.arch : 'an unknown architecture'}, the package for ${arch}: ` +
          `rebuild it with \`TEMPORA_NATIVE_ARCH=${arch} node scripts/ensure-electron.mjs\`.`,
      );
    }
  }
  const llamaDir = join(resources, 'app.asar.unpacked', 'node_modules', '@node-llama-cpp');
  for (const name of existsSync(llamaDir) ? readdirSync(llamaDir) : []) {
    if (!(name === `${os}-${arch}` || name.startsWith(`${os}-${arch}-`)) || /-cuda(-|$)/.test(name)) {
      if (hasFiles(join(llamaDir, name))) problems.push(`@node-llama-cpp/${name} is in the ${os}-${arch} package (electron-builder.yml "files" should leave it out).`);
    }
  }
  const lanceDir = join(resources, 'app.asar.unpacked', 'node_modules', '@lancedb');
  for (const name of existsSync(lanceDir) ? readdirSync(lanceDir) : []) {
    if (name === 'lancedb' || !hasFiles(join(lanceDir, name))) continue;
    if (!(name === `lancedb-${nodePlatform}-${arch}` || name.startsWith(`lancedb-${nodePlatform}-${arch}-`))) problems.push(`@lancedb/${name} is in the ${nodePlatform}-${arch} package.`);
  }
  for (const [file, what] of [['bulk-load-worker.js', 'bulk-load worker'], ['segment-check-worker.js', 'segment-check worker']]) {
    const worker = join(resources, 'app.asar.unpacked', 'out', 'main', file);
    if (!existsSync(worker)) problems.push(`${worker} is missing: the ${what} must be unpacked (electron-builder.yml "asarUnpack").`);
  }
  return problems;
}

export async function afterPack(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const resources = resourcesDir({ appOutDir, electronPlatformName, productFilename: packager.appInfo.productFilename });
  const problems = packageProblems({
    resources,
    platform: electronPlatformName,
    arch: builderArchName(context.arch),
    electronVersion: packager.config.electronVersion ?? packager.info.framework.version,
  });
  if (problems.length > 0) throw new Error(`the packed app at ${appOutDir} is not right:\n- ${problems.join('\n- ')}`);
}

export default afterPack;

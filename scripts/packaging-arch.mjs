/**
 * Which architecture a native binary is for, read from its header (ELF, Mach-O, PE), and which
 * architecture the Electron app will run as. Used by scripts/ensure-electron.mjs (build
 * better-sqlite3 for the Electron that is installed, not for the Node that runs the script: under
 * Rosetta an x64 Node installs an arm64 Electron) and scripts/packaging-after-pack.mjs (refuse a
 * package whose addon is for another architecture). Pure functions; no dependencies.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const ELF_MACHINES = { 0x03: 'ia32', 0x28: 'armv7l', 0x3e: 'x64', 0xb7: 'arm64' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64', 0x07: 'ia32', 0x0c: 'armv7l' };
const PE_MACHINES = { 0x014c: 'ia32', 0x8664: 'x64', 0xaa64: 'arm64', 0x01c4: 'armv7l' };

/**
 * The format and architecture of an executable or shared library from its first bytes (4 KiB are
 * plenty), or null when it is none of ELF, Mach-O or PE. A fat Mach-O file is 'universal'.
 */
export function binaryArch(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 20 && buf.readUInt32BE(0) === 0x7f454c46) {
    const machine = buf[5] === 2 ? buf.readUInt16BE(18) : buf.readUInt16LE(18);
    return { format: 'elf', arch: ELF_MACHINES[machine] ?? `machine-${machine}` };
  }
  if (buf.length >= 8) {
    const magic = buf.readUInt32LE(0);
    if (magic === 0xfeedfacf || magic === 0xfeedface) {
      const cpu = buf.readUInt32LE(4);
      return { format: 'macho', arch: MACHO_CPUS[cpu] ?? `cpu-${cpu}` };
    }
    if (buf.readUInt32BE(0) === 0xcafebabe) return { format: 'macho', arch: 'universal' };
  }
  if (buf.length >= 0x40 && buf[0] === 0x4d && buf[1] === 0x5a) {
    const pe = buf.readUInt32LE(0x3c);
    if (pe + 6 <= buf.length && buf.readUInt32BE(pe) === 0x50450000) {
      const machine = buf.readUInt16LE(pe + 4);
      return { format: 'pe', arch: PE_MACHINES[machine] ?? `machine-${machine}` };
    }
  }
  return null;
}

/** binaryArch() of a file, or null when it cannot be read or is no binary. */
export function fileArch(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return binaryArch(buf.subarray(0, n));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The architecture Electron runs as, so native addons must be built for:
 * 1. the installed Electron binary's own header, when it can be read (the truth);
 * 2. else what node_modules/electron/install.js downloads: npm_config_arch, else process.arch,
 *    except that on macOS an x64 Node under Rosetta (sysctl.proc_translated = 1) gets arm64.
 */
export function electronArch({ platform, processArch, env = {}, translated = false, installedBinaryArch = null }) {
  if (installedBinaryArch && installedBinaryArch !== 'universal' && !/^(machine|cpu)-/.test(installedBinaryArch)) return installedBinaryArch;
  const arch = env.npm_config_arch || processArch;
  if (platform === 'darwin' && arch === 'x64' && env.npm_config_arch === undefined && translated) return 'arm64';
  return arch;
}

/** electron-builder's Arch enum (builder-util) to its name. */
export function builderArchName(arch) {
  return typeof arch === 'string' ? arch : (['ia32', 'x64', 'armv7l', 'arm64', 'universal'][arch] ?? String(arch));
}

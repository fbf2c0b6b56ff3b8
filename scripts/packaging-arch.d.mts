// Types for scripts/packaging-arch.mjs, so TypeScript tests can import it.
export interface BinaryArch {
  format: 'elf' | 'macho' | 'pe';
  arch: string;
}
export function binaryArch(bytes: Uint8Array): BinaryArch | null;
export function fileArch(path: string): BinaryArch | null;
export function electronArch(options: {
  platform: string;
  processArch: string;
  env?: Record<string, string | undefined>;
  translated?: boolean;
  installedBinaryArch?: string | null;
}): string;
export function builderArchName(arch: number | string): string;

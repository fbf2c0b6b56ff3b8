// Types for scripts/ensure-electron.mjs, so TypeScript tests can import its pure parts.
export const NATIVE_BINDING_FILE: string;
export const ELECTRON_HEADERS_URL: string;
export function electronBindingPath(repoRoot: string, electronVersion: string): string;
export function electronVersion(repoRoot: string): string;
export function installedElectronBinary(electronDir: string, version: string, env?: Record<string, string | undefined>): string | null;
export function bindingBuildCommands(options: {
  version: string;
  arch: string;
  platform: string;
  prebuildInstall: string;
  nodeGyp: string | null;
}): { name: string; args: (string | null)[] }[];
export function findNodeGyp(env?: Record<string, string | undefined>, execPath?: string): string | null;
export function buildEnv(env?: Record<string, string | undefined>): Record<string, string | undefined>;
export function electronViteProblem(env?: Record<string, string | undefined>, binary?: string | null): string[] | null;
export function bindingArch(options: {
  platform: string;
  processArch: string;
  env?: Record<string, string | undefined>;
  translated?: boolean;
  installedBinaryArch?: string | null;
}): string;
export function runsUnderRosetta(platform?: string): boolean;
export function downloadUnreachable(output: string): { code: string; host: string } | null;
export interface SandboxFacts {
  platform: string;
  restricted: boolean;
  sandbox: { uid: number; mode: number } | null;
  noSandbox?: boolean;
  profileNamesElectron?: boolean;
}
export function sandboxProblem(facts: SandboxFacts): string[] | null;
export function readSandboxFacts(electronBinary: string, env?: Record<string, string | undefined>): SandboxFacts;

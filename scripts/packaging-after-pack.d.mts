// Types for scripts/packaging-after-pack.mjs, so TypeScript tests can import its pure parts.
export function resourcesDir(options: { appOutDir: string; electronPlatformName: string; productFilename: string }): string;
export function packageProblems(options: { resources: string; platform: string; arch: string; electronVersion: string }): string[];
export function afterPack(context: unknown): Promise<void>;
export default afterPack;

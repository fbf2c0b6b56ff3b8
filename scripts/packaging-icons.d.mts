// Types for scripts/packaging-icons.mjs, so TypeScript tests can import it.
export const PNG_SIZES: number[];
export function colourAt(x: number, y: number): number[] | null;
export function renderIcon(size: number, samples?: number): Buffer;
export function encodePng(size: number, rgba: Buffer): Buffer;
export function encodeIcns(pngs: Record<number, Buffer>): Buffer;
export function encodeIco(pngs: Record<number, Buffer>): Buffer;
export function writeIcons(outDir: string): string[];

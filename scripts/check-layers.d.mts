// Types for scripts/check-layers.mjs, so TypeScript tests can import it.
export interface LayerViolation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
  /** "file:line imports 'X' (rule)" */
  message: string;
}
export const SCANNED_DIRS: string[];
export function layerOf(file: string): string;
export function packageOf(specifier: string): string;
export function importsOf(fileName: string, text: string): { specifier: string; line: number; typeOnly: boolean }[];
export function ruleBroken(file: string, specifier: string, target: string | null, typeOnly?: boolean): string | null;
export function checkSource(file: string, text: string): LayerViolation[];
export function sourceFiles(root: string): string[];
export function checkLayers(root: string): { files: string[]; violations: LayerViolation[] };

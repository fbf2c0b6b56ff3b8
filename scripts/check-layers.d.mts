// Types for scripts/check-layers.mjs, so TypeScript tests can import it.
export interface LayerViolation {
  file: string;
  /** 0 when dependency-cruiser gives no line (then the message names the file only). */
  line: number;
  specifier: string;
  /** Where the import resolved to, when it did. */
  to?: string;
  /** The rule's name in .dependency-cruiser.cjs. */
  rule: string;
  /** The rule in words. */
  comment: string;
  /** "file:line imports 'X' (resolved) [rule] comment" (+ " Cycle: a -> b -> a." for cycles) */
  message: string;
}
export interface FoundImport {
  specifier: string;
  line: number;
  typeOnly: boolean;
  /** `declare module 'x'` (an augmentation counts as an import of x). */
  declaration?: true;
  /** An import written inside a `declare module` block. */
  nested?: true;
}
export const SCANNED_DIRS: string[];
export const CONFIG_FILE: string;
export function importsOf(fileName: string, text: string): FoundImport[];
export function sourceFiles(root: string): string[];
export function checkLayers(root: string): Promise<{ files: string[]; violations: LayerViolation[] }>;

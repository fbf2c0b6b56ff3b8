// Types for scripts/lint-electron.mjs, so TypeScript tests can import it.
export const SCANNED: string[];
export const DISABLED_CHECKS: Record<string, string>;
export const ACCEPTED_CSP_FINDINGS: [string, string][];
export interface ElectronegativityIssue {
  id: string;
  file: string;
  location: { line: number; column: number };
  description: string;
  severity: { name: string; value: number };
  confidence: { name: string; value: number };
  sample?: string;
}
export function unacceptedCspFindings(policy: string): Array<{ directive: string; description: string; severity: number }>;
export function lintElectron(root: string): Promise<{
  issues: ElectronegativityIssue[];
  errors: Array<{ file: string; message: string }>;
  files: number;
  electronVersion: string;
}>;

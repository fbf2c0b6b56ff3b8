/**
 * `npm run lint:electron` (Electronegativity over electron/main and electron/preload): clean on
 * this repository, and failing when the shell regresses - proved on a copy with the checklist
 * broken in several places at once.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintElectron, unacceptedCspFindings } from '../../scripts/lint-electron.mjs';
import { RENDERER_CSP } from '../../shared/csp';

const root = resolve(import.meta.dirname, '../..');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of what the lint reads, with `edit` applied to some files. */
function brokenCopy(edits: Record<string, (text: string) => string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-lint-electron-test-'));
  temps.push(dir);
  // The policies live in shared/csp.ts, where the lint loads them.
  for (const path of ['electron/main', 'electron/preload', 'shared/csp.ts']) cpSync(join(root, path), join(dir, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit of ${file} changed nothing`);
    writeFileSync(path, after);
  }
  return dir;
}

describe('lint:electron', () => {
  it('finds nothing in this repository', async () => {
    const result = await lintElectron(root);
    expect(result.errors).toEqual([]);
    expect(result.issues.map((i) => `${i.file}:${i.location.line} ${i.id}`)).toEqual([]);
    expect(result.files).toBeGreaterThan(5);
  });

  it('fails when the window or the session loses its protections', async () => {
    const dir = brokenCopy({
      'electron/main/window.ts': (t) => t.replace('contextIsolation: true', 'contextIsolation: false').replace('sandbox: true', 'sandbox: false'),
      'electron/main/security.ts': (t) => t.replace(/\n\s*session\.setPermissionRequestHandler\([^\n]*\n/, '\n'),
      'shared/csp.ts': (t) => t.replace(`"script-src 'self'", "style-src 'self'"`, `"script-src 'self' 'unsafe-inline'", "style-src 'self'"`),
    });
    const result = await lintElectron(dir);
    const ids = new Set(result.issues.map((i) => i.id));
    for (const id of ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK', 'CSP_GLOBAL_CHECK']) {
      expect(ids, id).toContain(id);
    }
  });

  it('fails when Node reaches the page', async () => {
    // (Electronegativity counts a sandboxed page as Node-free, so the sandbox goes too.)
    const dir = brokenCopy({
      'electron/main/window.ts': (t) => t.replace('nodeIntegration: false', 'nodeIntegration: true').replace(/\n\s*sandbox: true,/, ''),
    });
    const ids = (await lintElectron(dir)).issues.map((i) => i.id);
    expect(ids).toContain('NODE_INTEGRATION_JS_CHECK');
  });

  it('accepts only the reviewed CSP note', () => {
    expect(unacceptedCspFindings(RENDERER_CSP)).toEqual([]);
    expect(unacceptedCspFindings(RENDERER_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'")).length).toBeGreaterThan(0);
  });
});

/**
 * `npm run conformance` is the project's MCP conformance runner (scripts/mcp-conformance.mjs), which
 * runs on every Node the package allows (engines: >= 20.19) — the suite's own CLI (`npx conformance`)
 * needs Node 22's fs.globSync, which the runner supplies. One scenario, against a throwaway memory.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

describe('npm run conformance', () => {
  it('runs the project’s runner on this Node and passes the initialize scenario', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
    expect(pkg.engines.node).toBe('>=20.19');
    const result = await new Promise<{ code: number; stdout: string }>((done) => {
      execFile('npm', ['run', '--silent', 'conformance', '--', '--scenario', 'server-initialize'], { cwd: root, env: { ...process.env, LANCEDB_LOG: 'error' } }, (error, stdout) => {
        done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout });
      });
    });
    expect(result.stdout).toContain('applicable to a memory server: 1 passed, 0 failed');
    expect(result.code).toBe(0);
  }, 120_000);
});

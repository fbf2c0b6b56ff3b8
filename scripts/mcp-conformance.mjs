#!/usr/bin/env node
/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
 * Tempora's Streamable HTTP handler (electron/mcp), on a throwaway memory. Not part of `npm test`.
 *
 *   npm run conformance -- [--scenario NAME] [--suite active|all|pending] [--out DIR]
 *   (that is: node scripts/mcp-conformance.mjs …; `npx conformance`, the suite's own CLI, needs Node 22)
 *
 * The suite's server mode drives a URL (HTTP) only; stdio is covered by test/integration/mcp-stdio.test.ts.
 * Its client sends no Authorization header, so this script puts the handler behind a loopback
 * proxy that adds the per-start token (the gate itself is tested in test/integration/mcp-http.test.ts).
 * Many scenarios exercise the reference "everything" server's own tools, prompts and logging
 * (test_simple_text, test_prompt …), which Tempora does not have: the summary separates the
 * scenarios that apply to a memory server from those.
 * On Node 20 the suite needs fs.globSync (Node 22); a loader hook supplies a stub for it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { scenario: { type: 'string' }, suite: { type: 'string', default: 'active' }, out: { type: 'string' } } });

/** Scenarios about what any MCP server does (lifecycle, tools, resources, transport security). */
const APPLICABLE = new Set(['server-initialize', 'ping', 'tools-list', 'resources-list', 'resources-subscribe', 'resources-unsubscribe', 'dns-rebinding-protection', 'server-sse-polling', 'server-sse-multiple-streams']);

register();
process.env.TEMPORA_TZ ??= 'UTC';
const { TemporaEngine } = await import(pathToFileURL(join(root, 'electron/engine/index.ts')).href);
const { createMcpHttpHandler } = await import(pathToFileURL(join(root, 'electron/mcp/index.ts')).href);

const work = mkdtempSync(join(tmpdir(), 'tempora-mcp-conformance-'));
const out = values.out ? resolve(values.out) : join(work, 'results');
const engine = await TemporaEngine.open({ dataDir: join(work, 'data'), autoLoadModels: false, startWorker: false });
engine.memory.facts.observe(
  [{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00Z', cardinality: 'one' }],
  { where: 'conformance seed' },
);
const token = randomBytes(24).toString('base64url');
const handler = createMcpHttpHandler(engine, { token, learnsHere: false, onError: (error) => console.error(`mcp: ${error.message}`) });
const server = createServer((req, res) => {
  req.headers.authorization = `Bearer ${token}`;
  void handler(req, res).then((handled) => {
    if (!handled) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${server.address().port}/mcp`;

// fs.globSync appeared in Node 22; the suite imports it at load time.
const hook = join(work, 'glob-hook.mjs');
writeFileSync(
  hook,
  `export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { shortCircuit: true, url: 'data:text/javascript,' + encodeURIComponent("export * from 'node:fs'; import fs from 'node:fs'; export default fs; export const globSync = fs.globSync ?? (() => { throw new Error('fs.globSync needs Node 22'); });") };
  }
  return next(specifier, context);
}\n`,
);
const registerHook = join(work, 'register-hook.mjs');
writeFileSync(registerHook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);

const cli = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const args = ['--import', registerHook, cli, 'server', '--url', url, '--suite', values.suite, '-o', out, ...(values.scenario ? ['--scenario', values.scenario] : [])];
console.log(`conformance: testing ${url} (results in ${out})`);
const code = await new Promise((done) => spawn(process.execPath, args, { stdio: 'inherit', cwd: root }).on('exit', (c) => done(c ?? 1)));

const summary = summarize(out);
console.log('\nTempora MCP conformance (Streamable HTTP):');
for (const [group, counts] of Object.entries(summary)) {
  console.log(`  ${group}: ${counts.passed} passed, ${counts.failed} failed, ${counts.warnings} warnings in ${counts.scenarios.length} scenarios`);
  for (const s of counts.scenarios.filter((s) => s.failed > 0)) console.log(`    ✗ ${s.name}: ${s.failures.join('; ').slice(0, 300)}`);
}

await handler.close();
server.closeAllConnections();
server.close();
await engine.close();
if (!values.out) rmSync(work, { recursive: true, force: true });
// Fails when a scenario that applies to a memory server fails (or the suite itself did not run).
process.exitCode = Object.values(summary)[0].failed > 0 || Object.values(summary).every((g) => g.scenarios.length === 0) ? 1 : 0;
if (code !== 0) console.log(`(the suite itself exited with ${code}: the reference-server scenarios fail by design)`);

/** Counts the checks of each scenario's checks.json (in DIR/server-NAME-TIMESTAMP/), for the scenarios that apply and the others. */
function summarize(dir) {
  const applicable = "applicable to a memory server";
  const other = "about the reference server's own tools, prompts, logging and completions";
  const groups = { [applicable]: newGroup(), [other]: newGroup() };
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  } catch {
    return groups;
  }
  for (const entry of entries) {
    const name = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    let checks;
    try {
      checks = JSON.parse(readFileSync(join(dir, entry.name, 'checks.json'), 'utf8'));
    } catch {
      continue;
    }
    const group = groups[APPLICABLE.has(name) ? applicable : other];
    const failed = checks.filter((c) => c.status === 'FAILURE');
    group.passed += checks.filter((c) => c.status === 'SUCCESS').length;
    group.failed += failed.length;
    group.warnings += checks.filter((c) => c.status === 'WARNING').length;
    group.scenarios.push({ name, failed: failed.length, failures: failed.map((c) => `${c.id}: ${c.errorMessage ?? ''}`) });
  }
  return groups;
}

function newGroup() {
  return { passed: 0, failed: 0, warnings: 0, scenarios: [] };
}

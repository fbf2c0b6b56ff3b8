/**
 * The layering rules in .dependency-cruiser.cjs (run by `npm run lint:layers`, scripts/check-layers.mjs):
 * each rule is proven to catch a violation in a small scratch tree, the imports the house allows are
 * proven to pass, and the real tree is checked.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';
import { importsOf } from '../../scripts/check-layers.mjs';

const root = resolve(import.meta.dirname, '../..');
const configFile = resolve(root, '.dependency-cruiser.cjs');
const tsConfigFile = resolve(root, 'tsconfig.node.json');
const script = resolve(root, 'scripts/check-layers.mjs');
const SCANNED = ['electron', 'shared', 'renderer'];

let options: ICruiseOptions;
let tsConfig: ReturnType<typeof extractTSConfig>;

beforeAll(async () => {
  options = await extractDepcruiseOptions(configFile);
  tsConfig = extractTSConfig(tsConfigFile);
});

type Files = Record<string, string>;
/** A violation as "rule: from -> to". */
type Found = string;

/** Writes files into a fresh scratch tree (with this repository's node_modules linked in), runs fn, removes it. */
async function withTree<T>(files: Files, fn: (tree: string) => Promise<T>): Promise<T> {
  const tree = realpathSync(mkdtempSync(join(tmpdir(), 'tempora-layers-')));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'junction');
    return await fn(tree);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** Runs the rules over the scanned folders of dir, as dependency-cruiser's API. */
async function cruiseDir(dir: string): Promise<ICruiseResult> {
  const start = SCANNED.filter((name) => existsSync(join(dir, name)));
  const { output } = await cruise(start, { ...options, baseDir: dir, tsConfig: { fileName: tsConfigFile } }, {}, { tsConfig });
  if (typeof output === 'string') throw new Error(output);
  return output;
}

/** Node-module targets are shown by package ("node_modules/better-sqlite3"), wherever they resolve. */
const shortTarget = (to: string) => to.replace(/^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, 'node_modules/$1');

const violationsOf = (result: ICruiseResult): Found[] =>
  result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${shortTarget(v.to)}`).sort();

const cruiseFiles = (files: Files) => withTree(files, async (tree) => violationsOf(await cruiseDir(tree)));

/** A module that exports something, for imports to land on. */
const MODULE = 'export const y = 1;\nexport type Y = number;\n';

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [script, ...args], { cwd: root }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

describe('layering: the configuration', () => {
  it('makes every rule an error, with a comment that says it in words', () => {
    const rules = options.ruleSet?.forbidden ?? [];
    expect(rules.length).toBeGreaterThanOrEqual(16);
    for (const rule of rules) {
      expect(rule.severity, rule.name).toBe('error');
      expect(rule.comment?.length ?? 0, rule.name).toBeGreaterThan(30);
    }
    expect(new Set(rules.map((rule) => rule.name)).size).toBe(rules.length);
    expect(options.tsPreCompilationDeps).toBe(true);
  });
});

describe('layering: each rule catches its violation', () => {
  // [what, files, the exact violations expected ("rule: from -> to")]
  const cases: [string, Files, Found[]][] = [
    [
      'a two-file type-only cycle',
      {
        'electron/engine/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
        'electron/engine/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
      },
      ['no-circular: electron/engine/a.ts -> electron/engine/b.ts'],
    ],
    [
      'a cycle across folders of one layer, through value imports',
      {
        'electron/assistant/chat/a.ts': "import { b } from '../retrieval/b';\nexport const a = () => b;\n",
        'electron/assistant/retrieval/b.ts': "import { a } from '../chat/a';\nexport const b = () => a;\n",
      },
      ['no-circular: electron/assistant/chat/a.ts -> electron/assistant/retrieval/b.ts'],
    ],
    ['an import that does not resolve', { 'electron/engine/x.ts': "import { y } from './missing';\n" }, ['not-to-unresolvable: electron/engine/x.ts -> ./missing']],
    [
      'shared/ importing electron/',
      { 'shared/x.ts': "import { openMemory } from '../electron/memory/index';\n", 'electron/memory/index.ts': MODULE },
      ['shared-only-zod-and-itself: shared/x.ts -> electron/memory/index.ts'],
    ],
    [
      'shared/ importing renderer/ (types only)',
      { 'shared/x.ts': "import type { Y } from '../renderer/src/y';\n", 'renderer/src/y.ts': MODULE },
      ['shared-only-zod-and-itself: shared/x.ts -> renderer/src/y.ts'],
    ],
    ['shared/ importing a Node built-in', { 'shared/x.ts': "import { createHash } from 'node:crypto';\n" }, ['shared-only-zod-and-itself: shared/x.ts -> crypto']],
    ['shared/ importing a package other than zod', { 'shared/x.ts': "import { useState } from 'react';\n" }, ['shared-only-zod-and-itself: shared/x.ts -> node_modules/react']],
    ['electron/memory importing electron/llm', { 'electron/memory/x.ts': "import { y } from '../llm/y';\n", 'electron/llm/y.ts': MODULE }, ['memory-not-to-upper-layers: electron/memory/x.ts -> electron/llm/y.ts']],
    [
      'electron/memory importing electron/llm types only',
      { 'electron/memory/x.ts': "import type { Y } from '../llm/ports';\n", 'electron/llm/ports.ts': MODULE },
      ['memory-not-to-upper-layers: electron/memory/x.ts -> electron/llm/ports.ts'],
    ],
    ['electron/memory importing electron/assistant', { 'electron/memory/x.ts': "export * from '../assistant/y';\n", 'electron/assistant/y.ts': MODULE }, ['memory-not-to-upper-layers: electron/memory/x.ts -> electron/assistant/y.ts']],
    ['electron/memory importing electron/engine', { 'electron/memory/store/x.ts': "import { y } from '../../engine/y';\n", 'electron/engine/y.ts': MODULE }, ['memory-not-to-upper-layers: electron/memory/store/x.ts -> electron/engine/y.ts']],
    ['electron/memory importing a face', { 'electron/memory/x.ts': "import { y } from '../cli/y';\n", 'electron/cli/y.ts': MODULE }, ['memory-not-to-upper-layers: electron/memory/x.ts -> electron/cli/y.ts']],
    ['memory\'s store importing the temporal rules', { 'electron/memory/store/x.ts': "import { y } from '../temporal/y';\n", 'electron/memory/temporal/y.ts': MODULE }, ['memory-store-at-the-bottom: electron/memory/store/x.ts -> electron/memory/temporal/y.ts']],
    ['memory\'s store importing a facade', { 'electron/memory/store/x.ts': "import { y } from '../memory';\n", 'electron/memory/memory.ts': MODULE }, ['memory-store-at-the-bottom: electron/memory/store/x.ts -> electron/memory/memory.ts']],
    ['memory\'s vectors importing a facade', { 'electron/memory/vectors/x.ts': "import { y } from '../memory';\n", 'electron/memory/memory.ts': MODULE }, ['memory-rooms-in-order: electron/memory/vectors/x.ts -> electron/memory/memory.ts']],
    ['memory\'s text search importing transfer', { 'electron/memory/text-search/x.ts': "import { y } from '../transfer/y';\n", 'electron/memory/transfer/y.ts': MODULE }, ['memory-rooms-in-order: electron/memory/text-search/x.ts -> electron/memory/transfer/y.ts']],
    ['memory\'s transfer importing sync', { 'electron/memory/transfer/x.ts': "import { y } from '../sync/y';\n", 'electron/memory/sync/y.ts': MODULE }, ['memory-rooms-below-sync: electron/memory/transfer/x.ts -> electron/memory/sync/y.ts']],
    ['memory\'s sync importing a facade', { 'electron/memory/sync/x.ts': "import { y } from '../memory';\n", 'electron/memory/memory.ts': MODULE }, ['memory-sync-below-the-facades: electron/memory/sync/x.ts -> electron/memory/memory.ts']],
    ['electron/memory importing electron/sync', { 'electron/memory/sync/x.ts': "import { y } from '../../sync/y';\n", 'electron/sync/y.ts': MODULE }, ['memory-not-to-upper-layers: electron/memory/sync/x.ts -> electron/sync/y.ts']],
    ['electron/sync importing electron/engine', { 'electron/sync/x.ts': "import { y } from '../engine/y';\n", 'electron/engine/y.ts': MODULE }, ['sync-on-memory-only: electron/sync/x.ts -> electron/engine/y.ts']],
    ['electron/sync importing electron/assistant', { 'electron/sync/targets/x.ts': "import type { Y } from '../../assistant/y';\n", 'electron/assistant/y.ts': MODULE }, ['sync-on-memory-only: electron/sync/targets/x.ts -> electron/assistant/y.ts']],
    ['electron/assistant importing electron/sync', { 'electron/assistant/x.ts': "import { y } from '../sync/y';\n", 'electron/sync/y.ts': MODULE }, ['assistant-not-to-engine-or-faces: electron/assistant/x.ts -> electron/sync/y.ts']],
    ['memory\'s temporal rules importing text search', { 'electron/memory/temporal/x.ts': "import { y } from '../text-search/y';\n", 'electron/memory/text-search/y.ts': MODULE }, ['memory-temporal-below-search: electron/memory/temporal/x.ts -> electron/memory/text-search/y.ts']],
    ['memory\'s text search importing vectors', { 'electron/memory/text-search/x.ts': "import { y } from '../vectors/y';\n", 'electron/memory/vectors/y.ts': MODULE }, ['memory-search-below-vectors: electron/memory/text-search/x.ts -> electron/memory/vectors/y.ts']],
    ['memory\'s temporal rules importing the facade\'s types and errors', { 'electron/memory/temporal/x.ts': "import type { Y } from '../memory-api';\nimport { Z } from '../memory-errors';\n", 'electron/memory/memory-api.ts': MODULE, 'electron/memory/memory-errors.ts': MODULE }, []],
    ['electron/memory importing node-llama-cpp', { 'electron/memory/x.ts': "import type { Llama } from 'node-llama-cpp';\n" }, ['memory-not-to-node-llama-cpp: electron/memory/x.ts -> node_modules/node-llama-cpp']],
    ['electron/llm importing node-llama-cpp at load', { 'electron/llm/x.ts': "import { getLlama } from 'node-llama-cpp';\n" }, ['node-llama-cpp-loaded-with-a-model: electron/llm/x.ts -> node_modules/node-llama-cpp']],
    ['electron/engine importing what a model load imports, at load', { 'electron/engine/x.ts': "import { y } from '../llm/llama-calls';\n", 'electron/llm/llama-calls.ts': MODULE }, ['node-llama-cpp-loaded-with-a-model: electron/engine/x.ts -> electron/llm/llama-calls.ts']],
    ['electron/llm importing electron/memory', { 'electron/llm/x.ts': "import { y } from '../memory/index';\n", 'electron/memory/index.ts': MODULE }, ['llm-not-to-other-layers: electron/llm/x.ts -> electron/memory/index.ts']],
    ['electron/llm importing electron/assistant', { 'electron/llm/x.ts': "import { y } from '../assistant/y';\n", 'electron/assistant/y.ts': MODULE }, ['llm-not-to-other-layers: electron/llm/x.ts -> electron/assistant/y.ts']],
    ['electron/llm importing electron/engine', { 'electron/llm/x.ts': "import { y } from '../engine/y';\n", 'electron/engine/y.ts': MODULE }, ['llm-not-to-other-layers: electron/llm/x.ts -> electron/engine/y.ts']],
    ['electron/llm importing a face', { 'electron/llm/x.ts': "import { y } from '../server/y';\n", 'electron/server/y.ts': MODULE }, ['llm-not-to-other-layers: electron/llm/x.ts -> electron/server/y.ts']],
    ['electron/assistant importing electron/engine', { 'electron/assistant/chat/x.ts': "import { y } from '../../engine/y';\n", 'electron/engine/y.ts': MODULE }, ['assistant-not-to-engine-or-faces: electron/assistant/chat/x.ts -> electron/engine/y.ts']],
    ['electron/assistant importing a face', { 'electron/assistant/x.ts': "import { y } from '../main/y';\n", 'electron/main/y.ts': MODULE }, ['assistant-not-to-engine-or-faces: electron/assistant/x.ts -> electron/main/y.ts']],
    ['electron/engine importing electron/main', { 'electron/engine/x.ts': "import { y } from '../main/y';\n", 'electron/main/y.ts': MODULE }, ['engine-not-to-faces: electron/engine/x.ts -> electron/main/y.ts']],
    ['electron/engine importing electron/server', { 'electron/engine/x.ts': "import type { Y } from '../server/y';\n", 'electron/server/y.ts': MODULE }, ['engine-not-to-faces: electron/engine/x.ts -> electron/server/y.ts']],
    ['electron/engine importing electron/mcp', { 'electron/engine/x.ts': "import { y } from '../mcp/y';\n", 'electron/mcp/y.ts': MODULE }, ['engine-not-to-faces: electron/engine/x.ts -> electron/mcp/y.ts']],
    ['electron/main importing electron/server', { 'electron/main/x.ts': "import { y } from '../server/y';\n", 'electron/server/y.ts': MODULE }, ['main-not-to-other-face: electron/main/x.ts -> electron/server/y.ts']],
    ['electron/server importing electron/main', { 'electron/server/x.ts': "import { y } from '../main/y';\n", 'electron/main/y.ts': MODULE }, ['face-not-to-other-face: electron/server/x.ts -> electron/main/y.ts']],
    ['electron/server importing electron/cli', { 'electron/server/x.ts': "import type { Y } from '../cli/y';\n", 'electron/cli/y.ts': MODULE }, ['face-not-to-other-face: electron/server/x.ts -> electron/cli/y.ts']],
    ['electron/preload importing electron/main', { 'electron/preload/x.ts': "import type { Y } from '../main/y';\n", 'electron/main/y.ts': MODULE }, ['face-not-to-other-face: electron/preload/x.ts -> electron/main/y.ts']],
    ['electron/mcp importing electron/server', { 'electron/mcp/x.ts': "import { y } from '../server/y';\n", 'electron/server/y.ts': MODULE }, ['face-not-to-other-face: electron/mcp/x.ts -> electron/server/y.ts']],
    ['electron/cli importing electron/main', { 'electron/cli/x.ts': "import { y } from '../main/y';\n", 'electron/main/y.ts': MODULE }, ['cli-not-to-other-face: electron/cli/x.ts -> electron/main/y.ts']],
    ['electron/cli importing electron/mcp', { 'electron/cli/commands/x.ts': "import { y } from '../../mcp/y';\n", 'electron/mcp/y.ts': MODULE }, ['cli-not-to-other-face: electron/cli/commands/x.ts -> electron/mcp/y.ts']],
    ['electron/main importing electron/mcp', { 'electron/main/x.ts': "import { y } from '../mcp/y';\n", 'electron/mcp/y.ts': MODULE }, ['main-not-to-other-face: electron/main/x.ts -> electron/mcp/y.ts']],
    ['electron/engine importing memory internals', { 'electron/engine/x.ts': "import { z } from '../memory/store/z';\n", 'electron/memory/store/z.ts': MODULE }, ['memory-only-through-index: electron/engine/x.ts -> electron/memory/store/z.ts']],
    ['electron/assistant importing memory internals (types only)', { 'electron/assistant/x.ts': "import type { Y } from '../memory/memory';\n", 'electron/memory/memory.ts': MODULE }, ['memory-only-through-index: electron/assistant/x.ts -> electron/memory/memory.ts']],
    ['a face importing memory internals', { 'electron/cli/x.ts': "import { y } from '../memory/vectors/y';\n", 'electron/memory/vectors/y.ts': MODULE }, ['memory-only-through-index: electron/cli/x.ts -> electron/memory/vectors/y.ts']],
    ['electron/cli importing better-sqlite3', { 'electron/cli/x.ts': "import Database from 'better-sqlite3';\n" }, ['sqlite-only-in-memory: electron/cli/x.ts -> node_modules/better-sqlite3']],
    ['electron/engine importing better-sqlite3 types', { 'electron/engine/x.ts': "import type { Database } from 'better-sqlite3';\n" }, ['sqlite-only-in-memory: electron/engine/x.ts -> node_modules/better-sqlite3']],
    ['electron/assistant requiring better-sqlite3', { 'electron/assistant/x.ts': "const Database = require('better-sqlite3');\n" }, ['sqlite-only-in-memory: electron/assistant/x.ts -> node_modules/better-sqlite3']],
    ['electron/memory importing electron', { 'electron/memory/x.ts': "import { app } from 'electron';\n" }, ['only-main-and-preload-import-electron: electron/memory/x.ts -> electron']],
    ['electron/llm requiring electron', { 'electron/llm/x.ts': "const { app } = require('electron');\n" }, ['only-main-and-preload-import-electron: electron/llm/x.ts -> electron']],
    ['electron/cli importing electron/main dynamically', { 'electron/cli/x.ts': "export const e = await import('electron/main');\n" }, ['only-main-and-preload-import-electron: electron/cli/x.ts -> electron/main']],
    ['electron/server importing electron types', { 'electron/server/x.ts': "import type { App } from 'electron';\n" }, ['only-main-and-preload-import-electron: electron/server/x.ts -> electron']],
    ['electron/engine with `import x = require`', { 'electron/engine/x.ts': "import electron = require('electron');\n" }, ['only-main-and-preload-import-electron: electron/engine/x.ts -> electron']],
    ['electron/assistant with an import() type', { 'electron/assistant/x.ts': "export type A = import('electron').App;\n" }, ['only-main-and-preload-import-electron: electron/assistant/x.ts -> electron']],
    ['electron/engine with require.resolve', { 'electron/engine/x.ts': "export const where = require.resolve('electron');\n" }, ['only-main-and-preload-import-electron: electron/engine/x.ts -> electron']],
    ['shared/ re-exporting electron types', { 'shared/x.ts': "export type { IpcMain } from 'electron';\n" }, ['only-main-and-preload-import-electron: shared/x.ts -> electron']],
    ['renderer/ importing electron', { 'renderer/src/x.tsx': "import { ipcRenderer } from 'electron';\n" }, ['only-main-and-preload-import-electron: renderer/src/x.tsx -> electron']],
    ['electron/main importing renderer/', { 'electron/main/x.ts': "import { y } from '../../renderer/src/y';\n", 'renderer/src/y.ts': MODULE }, ['electron-not-to-renderer: electron/main/x.ts -> renderer/src/y.ts']],
    ['electron/memory importing renderer/ types', { 'electron/memory/x.ts': "import type { Y } from '../../renderer/src/y';\n", 'renderer/src/y.ts': MODULE }, ['electron-not-to-renderer: electron/memory/x.ts -> renderer/src/y.ts']],
    ['renderer/ importing node:fs', { 'renderer/src/x.tsx': "import { readFileSync } from 'node:fs';\n" }, ['renderer-not-to-node-builtins: renderer/src/x.tsx -> fs']],
    ['renderer/ importing path', { 'renderer/src/x.ts': "import { join } from 'path';\n" }, ['renderer-not-to-node-builtins: renderer/src/x.ts -> path']],
    ['renderer/ calling process.getBuiltinModule', { 'renderer/src/x.ts': "export const fs = process.getBuiltinModule('node:fs');\n" }, ['renderer-not-to-node-builtins: renderer/src/x.ts -> fs']],
    [
      'renderer/ importing electron/',
      { 'renderer/src/x.tsx': "import { y } from '../../electron/memory/index';\n", 'electron/memory/index.ts': MODULE },
      ['renderer-only-shared-and-ui-packages: renderer/src/x.tsx -> electron/memory/index.ts'],
    ],
    ['renderer/ importing better-sqlite3', { 'renderer/src/x.tsx': "import Database from 'better-sqlite3';\n" }, ['renderer-only-shared-and-ui-packages: renderer/src/x.tsx -> node_modules/better-sqlite3']],
    ['renderer/ importing zod (shared/ owns it)', { 'renderer/src/x.tsx': "import { z } from 'zod';\n" }, ['renderer-only-shared-and-ui-packages: renderer/src/x.tsx -> node_modules/zod']],
  ];

  it.each(cases)('%s', async (_what, files, expected) => {
    expect(await cruiseFiles(files)).toEqual(expected);
  });

  it('reports an import that breaks two rules under both', async () => {
    const found = await cruiseFiles({ 'shared/x.ts': "import { z } from '../electron/memory/store/z';\n", 'electron/memory/store/z.ts': MODULE });
    expect(found).toEqual(['memory-only-through-index: shared/x.ts -> electron/memory/store/z.ts', 'shared-only-zod-and-itself: shared/x.ts -> electron/memory/store/z.ts']);
  });

  it('has a case for every rule', () => {
    const covered = new Set(cases.flatMap(([, , expected]) => expected.map((found) => found.split(':')[0])));
    expect([...covered].sort()).toEqual((options.ruleSet?.forbidden ?? []).map((rule) => rule.name).sort());
  });
});

describe('layering: what the house allows passes', () => {
  const allowed: [string, Files][] = [
    ['electron/cli importing electron/server (the CLI starts the bridge)', { 'electron/cli/x.ts': "import { y } from '../server/y';\n", 'electron/server/y.ts': MODULE }],
    ['electron/cli importing electron/mcp/index.ts (`tempora mcp`)', { 'electron/cli/commands/x.ts': "import { y } from '../../mcp/index';\n", 'electron/mcp/index.ts': MODULE }],
    ['electron/main importing electron/mcp/index.ts (MCP over HTTP in the app)', { 'electron/main/x.ts': "import { y } from '../mcp/index';\n", 'electron/mcp/index.ts': MODULE }],
    [
      'electron/main importing the engine, memory/index and electron',
      {
        'electron/main/x.ts': "import { app } from 'electron';\nimport { y } from '../engine/y';\nimport { openMemory } from '../memory/index';\n",
        'electron/engine/y.ts': MODULE,
        'electron/memory/index.ts': 'export const openMemory = 1;\n',
      },
    ],
    [
      'electron/preload importing electron and shared types',
      { 'electron/preload/x.ts': "import { contextBridge } from 'electron';\nimport type { Y } from '../../shared/api-contract';\n", 'shared/api-contract.ts': MODULE },
    ],
    [
      'electron/assistant importing memory through its index (also as a folder), llm and shared',
      {
        'electron/assistant/x.ts': "import { y } from '../memory/index';\nimport type { Y } from '../memory';\nimport type { P } from '../llm/ports';\nimport { t } from '../../shared/time';\n",
        'electron/memory/index.ts': MODULE,
        'electron/llm/ports.ts': 'export type P = string;\n',
        'shared/time.ts': 'export const t = 1;\n',
      },
    ],
    [
      'electron/engine importing assistant, llm, memory/index and shared',
      {
        'electron/engine/x.ts': "import { a } from '../assistant/a';\nimport { h } from '../llm/model-host';\nimport { y } from '../memory/index';\nimport { t } from '../../shared/time';\n",
        'electron/assistant/a.ts': 'export const a = 1;\n',
        'electron/llm/model-host.ts': 'export const h = 1;\n',
        'electron/memory/index.ts': MODULE,
        'shared/time.ts': 'export const t = 1;\n',
      },
    ],
    [
      'the faces importing the engine, memory/index and their own files',
      {
        'electron/server/x.ts': "import { y } from '../engine/y';\nimport { openMemory } from '../memory/index';\nimport { z } from './z';\n",
        'electron/server/z.ts': MODULE,
        'electron/cli/commands/c.ts': "import { x } from '../x';\n",
        'electron/cli/x.ts': "import { y } from '../engine/y';\nimport { readFileSync } from 'node:fs';\nexport const x = 1;\n",
        'electron/mcp/x.ts': "import { y } from '../engine/y';\nimport type { Y } from '../llm/ports';\n",
        'electron/engine/y.ts': MODULE,
        'electron/llm/ports.ts': MODULE,
        'electron/memory/index.ts': 'export const openMemory = 1;\n',
      },
    ],
    [
      'electron/memory importing its internals, better-sqlite3, LanceDB, apache-arrow, Node built-ins and shared',
      {
        'electron/memory/index.ts': "export { y } from './store/y';\n",
        'electron/memory/store/y.ts':
          "import Database from 'better-sqlite3';\nimport type { Connection } from '@lancedb/lancedb';\nimport type { Table } from 'apache-arrow';\nimport { join } from 'node:path';\nimport { t } from '../../../shared/time';\nexport const y = [Database, join, t];\nexport type Z = [Connection, Table];\n",
        'shared/time.ts': 'export const t = 1;\n',
      },
    ],
    [
      'electron/sync importing memory through its index and shared; the engine and a face importing electron/sync',
      {
        'electron/sync/x.ts': "import { y } from '../memory/index';\nimport { t } from '../../shared/time';\nexport const x = [y, t];\n",
        'electron/engine/e.ts': "import { x } from '../sync/x';\nexport const e = x;\n",
        'electron/cli/c.ts': "import { x } from '../sync/x';\nexport const c = x;\n",
        'electron/memory/index.ts': MODULE,
        'shared/time.ts': 'export const t = 1;\n',
      },
    ],
    [
      'memory\'s sync room importing store, temporal and transfer; a facade importing it',
      {
        'electron/memory/sync/x.ts': "import { s } from '../store/s';\nimport { t } from '../temporal/t';\nimport { r } from '../transfer/r';\nexport const x = [s, t, r];\n",
        'electron/memory/memory-sync.ts': "import { x } from './sync/x';\nexport const f = x;\n",
        'electron/memory/store/s.ts': 'export const s = 1;\n',
        'electron/memory/temporal/t.ts': 'export const t = 1;\n',
        'electron/memory/transfer/r.ts': 'export const r = 1;\n',
      },
    ],
    ['electron/llm\'s runtime importing node-llama-cpp and shared', { 'electron/llm/llama-runtime.ts': "import { getLlama } from 'node-llama-cpp';\nimport { t } from '../../shared/time';\n", 'shared/time.ts': 'export const t = 1;\n' }],
    [
      'electron/llm importing node-llama-cpp for types, and it and the runtime with import()',
      {
        'electron/llm/x.ts': "import type { Llama } from 'node-llama-cpp';\nexport const load = async () => [await import('node-llama-cpp'), await import('./llama-runtime')];\n",
        'electron/llm/llama-runtime.ts': MODULE,
      },
    ],
    ['shared/ importing zod and its own files', { 'shared/x.ts': "import { z } from 'zod';\nimport { t } from './time';\n", 'shared/time.ts': 'export const t = 1;\n' }],
    ['shared/ importing temporal-polyfill (the zone module runs on both sides)', { 'shared/time-zone.ts': "import { Temporal } from 'temporal-polyfill';\n" }],
    [
      'renderer/ importing react, react-dom, @tanstack/*, CSS, its own files and shared',
      {
        'renderer/src/x.tsx':
          "import { useState } from 'react';\nimport { createRoot } from 'react-dom/client';\nimport { useQuery } from '@tanstack/react-query';\nimport { useVirtualizer } from '@tanstack/react-virtual';\nimport './styles.css';\nimport { App } from './App';\nimport type { Y } from '../../shared/memory-schema';\n",
        'renderer/src/styles.css': 'body { margin: 0; }\n',
        'renderer/src/App.tsx': 'export const App = () => null;\n',
        'renderer/src/env.d.ts': "declare module '*.css';\n",
        'shared/memory-schema.ts': MODULE,
      },
    ],
  ];

  it.each(allowed)('%s', async (_what, files) => {
    expect(await cruiseFiles(files)).toEqual([]);
  });
});

describe('layering: npm run lint:layers', () => {
  it('finds every import form, and ignores look-alikes in comments and strings', () => {
    const text = [
      "import a from 'a';",
      "import 'b';",
      "import type { C } from 'c';",
      "export { d } from 'd';",
      "export * from 'e';",
      "import f = require('f');",
      "const g = await import('g');",
      "const h = require('h');",
      "type I = import('i').I;",
      "const j = require.resolve('j');",
      "// import x from 'not-this';",
      "const s = \"import y from 'nor-this'\";",
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual([
      { specifier: 'a', line: 1, typeOnly: false },
      { specifier: 'b', line: 2, typeOnly: false },
      { specifier: 'c', line: 3, typeOnly: true },
      { specifier: 'd', line: 4, typeOnly: false },
      { specifier: 'e', line: 5, typeOnly: false },
      { specifier: 'f', line: 6, typeOnly: false },
      { specifier: 'g', line: 7, typeOnly: false },
      { specifier: 'h', line: 8, typeOnly: false },
      { specifier: 'i', line: 9, typeOnly: true },
      { specifier: 'j', line: 10, typeOnly: false },
    ]);
  });

  it('marks module declarations and the imports inside them, which dependency-cruiser does not see', () => {
    const text = ["declare module 'electron' {", "  import type { X } from 'x';", '}', "declare module '*.css';"].join('\n');
    expect(importsOf('x.d.ts', text)).toEqual([
      { specifier: 'electron', line: 1, typeOnly: true, declaration: true },
      { specifier: 'x', line: 2, typeOnly: true, nested: true },
    ]);
  });

  it('fails with one line per violation, naming file, line, import and rule, and exit status 1', async () => {
    const result = await withTree(
      {
        'electron/memory/store.ts': "import { join } from 'node:path';\nimport { app } from 'electron';\nimport type { P } from '../llm/ports';\n",
        'electron/llm/ports.ts': 'export type P = string;\n',
        // Module declarations count as imports: dependency-cruiser alone does not see these two.
        'shared/augment.d.ts': "declare module 'electron' {\n  interface App { tempora: true }\n}\nexport {};\n",
        'electron/cli/augment.d.ts': "export {};\ndeclare module 'tempora-plugin' {\n  import type Database from 'better-sqlite3';\n}\n",
        'renderer/src/env.d.ts': "declare module '*.css';\n",
        'shared/ok.ts': "import { z } from 'zod';\n",
        'shared/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
        'shared/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
      },
      (tree) => runScript(['--root', tree]),
    );
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines.slice(0, -2)).toEqual([
      "electron/cli/augment.d.ts:3 imports (inside a declaration) 'better-sqlite3' (node_modules/better-sqlite3/lib/index.js) [sqlite-only-in-memory] Only electron/memory/ imports better-sqlite3 (only memory runs SQL); the rest of electron/ goes through electron/memory/index.ts.",
      "electron/memory/store.ts:2 imports 'electron' [only-main-and-preload-import-electron] Only electron/main and electron/preload import 'electron': everything else runs in plain Node (tests, the tempora command, the bridge) or in the sandboxed renderer.",
      "electron/memory/store.ts:3 imports '../llm/ports' (electron/llm/ports.ts) [memory-not-to-upper-layers] electron/memory/ is the bottom of electron/: it imports shared/, its own files and packages, never electron/llm, assistant, sync, engine or a face (main, preload, cli, server, mcp).",
      "shared/a.ts:1 imports './b' (shared/b.ts) [no-circular] No import cycles anywhere, type-only imports included: a cycle means two modules are really one, or a layer is upside down. Cycle: shared/a.ts -> shared/b.ts -> shared/a.ts.",
      "shared/augment.d.ts:1 declares module 'electron' [only-main-and-preload-import-electron] Only electron/main and electron/preload import 'electron': everything else runs in plain Node (tests, the tempora command, the bridge) or in the sandboxed renderer.",
    ]);
    expect(lines.at(-1)).toMatch(/^lint:layers: 5 layering violation\(s\) in 8 files \(/);
  });
});

describe('layering: the real tree', () => {
  it('holds, as `npm run lint:layers` checks it', async () => {
    const result = await runScript([]);
    // On failure the diff shows the violations, one per line.
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const files = Number(/^lint:layers: (\d+) files, no layering violations/.exec(result.stdout)?.[1] ?? 0);
    expect(files).toBeGreaterThan(100);
  });
});

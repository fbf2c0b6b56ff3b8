import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkLayers, checkSource, importsOf } from '../../scripts/check-layers.mjs';

const root = resolve(import.meta.dirname, '../..');

function messages(file: string, text: string): string[] {
  return checkSource(file, text).map((violation) => violation.message);
}

describe('layering', () => {
  it('holds for the current tree', () => {
    const { files, violations } = checkLayers(root);
    expect(files.length).toBeGreaterThan(0);
    expect(files).toContain('electron/main/index.ts');
    expect(violations.map((violation) => violation.message)).toEqual([]);
  });

  it('passes as `npm run lint:layers` runs it', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [resolve(root, 'scripts/check-layers.mjs')], { cwd: root });
    expect(stdout).toMatch(/no layering violations/);
  });

  it('fails, naming file, line, import and rule, when a tree crosses a layer', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'tempora-layers-'));
    try {
      mkdirSync(join(tree, 'electron/memory'), { recursive: true });
      mkdirSync(join(tree, 'shared'), { recursive: true });
      writeFileSync(join(tree, 'electron/memory/store.ts'), "import { join } from 'node:path';\nimport { app } from 'electron';\n");
      writeFileSync(join(tree, 'shared/ok.ts'), "import { z } from 'zod';\n");
      const run = promisify(execFile)(process.execPath, [resolve(root, 'scripts/check-layers.mjs'), '--root', tree]);
      const failure = await run.then(
        () => null,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(
        "electron/memory/store.ts:2 imports 'electron' (electron/memory must not import electron: it runs in plain Node; only electron/main and electron/preload may)",
      );
      expect(failure?.stderr).toContain('1 layering violation(s) in 2 files');
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

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

  it.each([
    ['electron/memory/x.ts', "import { app } from 'electron';"],
    ['electron/llm/x.ts', "const { app } = require('electron');"],
    ['electron/cli/x.ts', "const e = await import('electron/main');"],
    ['electron/server/x.ts', "import type { App } from 'electron';"],
    ['shared/x.ts', "export type { IpcMain } from 'electron';"],
    ['renderer/src/x.tsx', "import { ipcRenderer } from 'electron';"],
    ['test/unit/x.test.ts', "import { app } from 'electron';"],
    ['electron/memory/x.ts', "import { registerIpc } from '../main/ipc';"],
    ['electron/llm/x.ts', "import '../preload/index';"],
    ['renderer/src/x.tsx', "import { openMemory } from '../../electron/memory/index';"],
    ['renderer/src/x.tsx', "import { readFileSync } from 'node:fs';"],
    ['renderer/src/x.tsx', "import Database from 'better-sqlite3';"],
    ['renderer/src/x.tsx', "import { z } from 'zod';"],
    ['shared/x.ts', "import { openMemory } from '../electron/memory/index';"],
    ['shared/x.ts', "import { App } from '../renderer/src/App';"],
    ['shared/x.ts', "import { createHash } from 'node:crypto';"],
    ['electron/main/x.ts', "import { App } from '../../renderer/src/App';"],
    ['electron/memory/x.ts', "import { ModelHost } from '../llm/model-host';"],
    ['electron/llm/x.ts', "import { openMemory } from '../memory/index';"],
    ['electron/engine/x.ts', "import { app } from 'electron';"],
  ])('catches %s: %s', (file, source) => {
    const found = messages(file, source);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1 imports '.+' \\(.+\\)$`));
  });

  it.each([
    ['electron/main/x.ts', "import { app } from 'electron';\nimport { openMemory } from '../memory/index';"],
    ['electron/preload/x.ts', "import { contextBridge } from 'electron';\nimport type { TemporaApi } from '../../shared/api-contract';"],
    ['electron/memory/x.ts', "import Database from 'better-sqlite3';\nimport { toIsoUtc } from '../../shared/time';"],
    ['electron/cli/x.ts', "import { openMemory } from '../memory/index';\nimport { readFileSync } from 'node:fs';"],
    ['shared/x.ts', "import { z } from 'zod';\nimport { isIsoUtc } from './time';"],
    ['electron/memory/x.ts', "import type { StructuredModel } from '../llm/ports';"],
    ['electron/engine/x.ts', "import { ModelHost } from '../llm/model-host';\nimport { openMemory } from '../memory/index';"],
    ['renderer/src/x.tsx', "import { useState } from 'react';\nimport { createRoot } from 'react-dom/client';\nimport './styles.css';\nimport { App } from './App';\nimport type { FactRecord } from '../../shared/memory-schema';"],
  ])('allows %s', (file, source) => {
    expect(messages(file, source)).toEqual([]);
  });
});

/**
 * Every migration step frozen: a step must do tomorrow exactly what it did the day it shipped, so
 * migrations.ts and the copies its steps use (electron/memory/store/database/frozen/) import nothing
 * that keeps changing: only better-sqlite3's types, node built-ins and frozen/ files. Each frozen
 * file says so in its header and is used by migrations.ts alone. The check reads the import lines with
 * the TypeScript parser (scripts/check-layers.mjs importsOf: every import form), and is proven to
 * catch a live import.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../../scripts/check-layers.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const DATABASE = join(ROOT, 'electron/memory/store/database');
const FROZEN = join(DATABASE, 'frozen');
const MIGRATIONS = join(DATABASE, 'migrations.ts');

const frozenFiles = () =>
  readdirSync(FROZEN)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(FROZEN, name));

/** What a migration file may not import, one line each ("file:line imports 'x': why"). */
function liveImports(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const found of importsOf(file, text)) {
    const where = `${relative(ROOT, file)}:${found.line} imports '${found.specifier}'`;
    const spec = found.specifier;
    if (spec === 'better-sqlite3') {
      if (!found.typeOnly) problems.push(`${where}: only its types may be imported`);
    } else if (spec.startsWith('node:') || builtinModules.includes(spec)) {
      continue;
    } else if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (relative(FROZEN, target).startsWith('..')) problems.push(`${where}: live code (copy what the step needs into frozen/)`);
    } else {
      problems.push(`${where}: a package other than better-sqlite3's types`);
    }
  }
  return problems;
}

describe('frozen migrations', () => {
  it('migrations.ts and frozen/ import only better-sqlite3 types, node built-ins and frozen/ files', () => {
    const files = [MIGRATIONS, ...frozenFiles()];
    expect(files.length).toBeGreaterThan(1);
    expect(files.flatMap((file) => liveImports(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the check catches a step that calls live code', () => {
    const text = [
      "import type { Database } from 'better-sqlite3';",
      "import Database2 from 'better-sqlite3';",
      "import { normalizePredicate } from '../normalize';",
      "import { readFileSync } from 'node:fs';",
      "import { cjk } from './frozen/0007-cjk-grams';",
      "export const load = () => import('../timeline-rows');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(liveImports(MIGRATIONS, text)).toEqual([
      "electron/memory/store/database/migrations.ts:2 imports 'better-sqlite3': only its types may be imported",
      "electron/memory/store/database/migrations.ts:3 imports '../normalize': live code (copy what the step needs into frozen/)",
      "electron/memory/store/database/migrations.ts:6 imports '../timeline-rows': live code (copy what the step needs into frozen/)",
      "electron/memory/store/database/migrations.ts:7 imports 'zod': a package other than better-sqlite3's types",
    ]);
  });

  it('each frozen file says it is frozen and which step uses it, and only migrations.ts imports it', () => {
    const migrations = readFileSync(MIGRATIONS, 'utf8');
    for (const file of frozenFiles()) {
      const text = readFileSync(file, 'utf8');
      const step = /^(\d{4})-/.exec(file.slice(FROZEN.length + 1))?.[1];
      expect(step, `${relative(ROOT, file)} is named after its step (NNNN-…)`).toBeDefined();
      expect(text.slice(0, 300), relative(ROOT, file)).toMatch(new RegExp(`^/\\*\\*\\n \\* FROZEN: used only by migration ${step}_`));
      expect(migrations, `migrations.ts uses ${relative(ROOT, file)}`).toContain(`'./frozen/${file.slice(FROZEN.length + 1, -3)}'`);
    }
    const importers = sourceFiles(ROOT).filter((path) => {
      const file = join(ROOT, path);
      if (file === MIGRATIONS || !relative(FROZEN, file).startsWith('..')) return false;
      return importsOf(file, readFileSync(file, 'utf8')).some(
        (found) => found.specifier.startsWith('.') && !relative(FROZEN, resolve(dirname(file), found.specifier)).startsWith('..'),
      );
    });
    expect(importers).toEqual([]);
  });
});

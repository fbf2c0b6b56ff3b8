#!/usr/bin/env node
/**
 * `npm run lint:layers` (part of `npm test`): Tempora's layering, checked by dependency-cruiser with the
 * rules in .dependency-cruiser.cjs (where the house is described, one rule per arrow). This script runs
 * them over electron/, shared/ and renderer/ and prints one line per violation:
 *
 *   electron/memory/vectors/vector-sync.ts:7 imports '../../llm/ports' (electron/llm/ports.ts) [memory-not-to-upper-layers] electron/memory/ is ...
 *
 * dependency-cruiser sees every import form (`import`, `import type`, `export ... from`, `import x =
 * require()`, `import()`, `import('x')` types, `require()`, `require.resolve()`) but not TypeScript
 * module declarations: `declare module 'electron' { ... }` augments (so depends on) 'electron', and
 * imports written inside such a block are not seen either. This script finds those with the TypeScript
 * parser and checks them against the same rules, by cruising a scratch copy of the tree in which they
 * are written as plain imports.
 *
 * Usage: node scripts/check-layers.mjs [--root DIR]   (default: this repository; the rules always come
 *        from this repository's .dependency-cruiser.cjs)
 * Exit status 1 when there are violations. test/unit/layering.test.ts proves each rule.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import ts from 'typescript';

export const SCANNED_DIRS = ['electron', 'shared', 'renderer'];
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CONFIG_FILE = join(REPO, '.dependency-cruiser.cjs');
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', 'build']);

/**
 * Every module specifier in a source text, with its 1-based line. Uses the TypeScript parser, so
 * comments and strings that merely look like imports are not counted. Entries dependency-cruiser does
 * not see are marked: `declaration: true` for `declare module 'x'` (not for wildcards such as '*.css'),
 * `nested: true` for an import or export written inside a declaration block.
 */
export function importsOf(fileName, text) {
  const kind = /\.[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const add = (node, typeOnly = false, mark = {}) => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, typeOnly, ...mark });
    }
  };
  const nested = (node) => (ts.isSourceFile(node.parent) ? {} : { nested: true });
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly, nested(node));
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly, nested(node));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, false, nested(node));
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isDynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isRequireResolve =
        ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'require';
      if ((isDynamicImport || isRequire || isRequireResolve) && node.arguments.length > 0) add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name) && !node.name.text.includes('*')) {
      // `declare module 'electron' { ... }` augments that module: it counts as an import.
      add(node.name, true, { declaration: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Repository-relative posix paths of every source file under the scanned directories. */
export function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path);
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  for (const dir of SCANNED_DIRS) walk(join(root, dir));
  return files.sort();
}

/** dependency-cruiser's options from .dependency-cruiser.cjs, for a cruise of the tree at root. */
async function cruiseOptions(root) {
  const options = await extractDepcruiseOptions(CONFIG_FILE);
  const tsConfigFile = resolve(REPO, options.tsConfig?.fileName ?? 'tsconfig.node.json');
  return {
    options: { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile } },
    transpile: { tsConfig: extractTSConfig(tsConfigFile) },
  };
}

/** Runs the rules over `start` (paths relative to root); the cruise result, or throws. */
async function cruiseTree(root, start, prepared) {
  const { options, transpile } = prepared ?? (await cruiseOptions(root));
  const { output } = await cruise(start, options, {}, transpile);
  if (typeof output === 'string') throw new Error(`dependency-cruiser returned text instead of a result: ${output.slice(0, 200)}`);
  return output;
}

const commentOf = (result) => {
  const comments = new Map((result.summary.ruleSetUsed?.forbidden ?? []).map((rule) => [rule.name, rule.comment ?? '']));
  return (name) => comments.get(name) ?? '';
};

/** The specifiers in `from` that resolved to `to`. */
const specifiersOf = (result, from, to) =>
  (result.modules.find((module) => module.source === from)?.dependencies ?? []).filter((d) => d.resolved === to).map((d) => d.module);

function violation({ file, line, specifier, to, rule, comment, cycle, verb = 'imports' }) {
  const where = line ? `${file}:${line}` : file;
  // A package is shown from node_modules/ on, wherever that is (the scratch trees link this repository's).
  const shown = to?.replace(/^.*?(?:^|\/)node_modules\//, 'node_modules/');
  const target = shown && shown !== specifier ? ` (${shown})` : '';
  const loop = cycle?.length ? ` Cycle: ${[file, ...cycle.map((step) => step.name)].join(' -> ')}.` : '';
  return { file, line, specifier, to, rule, comment, message: `${where} ${verb} '${specifier}'${target} [${rule}] ${comment}${loop}` };
}

/** Violations through imports dependency-cruiser sees. */
function importViolations(root, result) {
  const comment = commentOf(result);
  const texts = new Map();
  const linesOf = (file) => {
    if (!texts.has(file)) {
      let found = [];
      try {
        found = importsOf(file, readFileSync(join(root, file), 'utf8'));
      } catch {
        // not a readable source file: no line numbers
      }
      texts.set(file, found);
    }
    return texts.get(file);
  };
  return result.summary.violations.map((v) => {
    const specifiers = specifiersOf(result, v.from, v.to);
    const specifier = specifiers[0] ?? v.to;
    const line = linesOf(v.from).find((i) => specifiers.includes(i.specifier) && !i.declaration)?.line ?? 0;
    return violation({ file: v.from, line, specifier, to: v.to, rule: v.rule.name, comment: comment(v.rule.name), cycle: v.cycle });
  });
}

/**
 * Violations through module declarations (`declare module 'x'`) and imports inside them: the tree is
 * copied to a scratch folder, each such specifier is appended to its file as a plain import, and the
 * files that have any are cruised there with the same rules.
 */
async function declarationViolations(root, files, prepared) {
  const hidden = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    if (!text.includes('declare')) continue;
    const found = importsOf(file, text).filter((i) => i.declaration || i.nested);
    if (found.length > 0) hidden.set(file, found);
  }
  if (hidden.size === 0) return [];
  const scratch = mkdtempSync(join(tmpdir(), 'tempora-layers-declarations-'));
  try {
    for (const dir of SCANNED_DIRS) {
      if (existsSync(join(root, dir))) cpSync(join(root, dir), join(scratch, dir), { recursive: true, filter: (path) => !SKIPPED_DIRS.has(path.split(sep).pop() ?? '') });
    }
    if (existsSync(join(root, 'node_modules'))) symlinkSync(resolve(root, 'node_modules'), join(scratch, 'node_modules'), 'junction');
    if (existsSync(join(root, 'package.json'))) cpSync(join(root, 'package.json'), join(scratch, 'package.json'));
    for (const [file, found] of hidden) {
      const extra = found.map((i) => `import ${JSON.stringify(i.specifier)};`).join('\n');
      writeFileSync(join(scratch, file), `${readFileSync(join(root, file), 'utf8')}\n${extra}\n`);
    }
    const result = await cruiseTree(scratch, [...hidden.keys()], { ...prepared, options: { ...prepared.options, baseDir: scratch } });
    const comment = commentOf(result);
    const out = [];
    for (const v of result.summary.violations) {
      // A declaration may name a module that exists only as that declaration: not an unresolvable import.
      if (v.rule.name === 'not-to-unresolvable') continue;
      const specifiers = specifiersOf(result, v.from, v.to);
      for (const i of hidden.get(v.from) ?? []) {
        if (!specifiers.includes(i.specifier)) continue;
        out.push(violation({ file: v.from, line: i.line, specifier: i.specifier, to: v.to, rule: v.rule.name, comment: comment(v.rule.name), cycle: v.cycle, verb: i.declaration ? 'declares module' : 'imports (inside a declaration)' }));
      }
    }
    return out;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Checks the tree under root against .dependency-cruiser.cjs.
 * files: the source files checked; violations: one per broken rule per import, sorted by file and line.
 */
export async function checkLayers(root) {
  const start = SCANNED_DIRS.filter((dir) => existsSync(join(root, dir)));
  const files = sourceFiles(root);
  if (start.length === 0) return { files, violations: [] };
  const prepared = await cruiseOptions(root);
  const result = await cruiseTree(root, start, prepared);
  const violations = [...importViolations(root, result), ...(await declarationViolations(root, files, prepared))];
  const seen = new Set();
  return {
    files,
    violations: violations
      .filter((v) => !seen.has(v.message) && seen.add(v.message))
      .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule) || a.message.localeCompare(b.message)),
  };
}

async function main(argv) {
  // --root DIR checks another tree (the tests use it to prove that violations fail the script).
  const rootFlag = argv.indexOf('--root');
  const root = rootFlag >= 0 && argv[rootFlag + 1] ? resolve(argv[rootFlag + 1]) : REPO;
  const started = performance.now();
  const { files, violations } = await checkLayers(root);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (violations.length > 0) {
    for (const v of violations) console.error(v.message);
    console.error(`\nlint:layers: ${violations.length} layering violation(s) in ${files.length} files (${seconds} s; rules in .dependency-cruiser.cjs).`);
    process.exit(1);
  }
  console.log(`lint:layers: ${files.length} files, no layering violations (${seconds} s; rules in .dependency-cruiser.cjs).`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`lint:layers: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exit(2);
  });
}

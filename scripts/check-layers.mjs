#!/usr/bin/env node
/**
 * Enforces Tempora's layering (`npm run lint:layers`; also run by test/unit/layering.test.ts):
 *
 *   - Only electron/main and electron/preload may import 'electron'. In particular electron/memory,
 *     electron/llm, electron/cli, electron/server and shared/ never do: they run in plain Node (tests,
 *     the `tempora` command, the bridge).
 *   - The Node-side layers (electron/memory, llm, cli, server) do not import electron/main or
 *     electron/preload either (that would pull 'electron' in through the back door).
 *   - renderer/ imports nothing but shared/, its own files, react / react-dom and CSS.
 *   - shared/ imports nothing but zod and its own files (neither electron/ nor renderer/).
 *   - Nothing under electron/ imports renderer/.
 *
 * Every import form counts: `import ... from`, `import '...'`, `export ... from`, `import x = require()`,
 * `import()` (also in types), `require()`. Type-only imports count too.
 * Usage: node scripts/check-layers.mjs [--root DIR]   (default: this repository)
 * Output: one line per violation, "file:line imports 'X' (rule)"; exit status 1 when there are any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const SCANNED_DIRS = ['electron', 'shared', 'renderer'];
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', 'build']);

/** Layers that run in plain Node and must never load Electron. */
const NODE_LAYERS = ['electron/memory', 'electron/llm', 'electron/engine', 'electron/cli', 'electron/server'];
/** Pairs of layers that may see each other's types only (node-llama-cpp template: neither loads the other). */
const TYPE_ONLY = [['electron/memory', 'electron/llm'], ['electron/llm', 'electron/memory']];
const ELECTRON_LAYERS = ['electron/main', 'electron/preload'];
const RENDERER_PACKAGES = ['react', 'react-dom', '@tanstack/react-virtual', '@tanstack/react-query'];
const SHARED_PACKAGES = ['zod'];

/** The layer of a repository-relative posix path: 'electron/memory', 'shared', 'renderer', 'electron' ... */
export function layerOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'electron') return parts.length > 2 ? `electron/${parts[1]}` : 'electron';
  return parts[0] ?? '';
}

/** The package a bare specifier names: 'react-dom/client' -> 'react-dom', '@scope/a/b' -> '@scope/a'. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const isRelative = (specifier) => specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
const isElectron = (specifier) => specifier === 'electron' || specifier.startsWith('electron/');
const isCss = (specifier) => /\.css(?:\?.*)?$/.test(specifier);
const within = (file, layer) => file === layer || file.startsWith(`${layer}/`);

/**
 * Every module specifier in a source text, with its 1-based line. Uses the TypeScript parser, so
 * comments and strings that merely look like imports are not counted.
 */
export function importsOf(fileName, text) {
  const kind = /\.[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const add = (node, typeOnly = false) => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, typeOnly });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
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
      // `declare module 'electron' { ... }` augments that module: treat it as an import.
      add(node.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The rule an import breaks, or null. file: repository-relative posix path of the importer;
 * target: repository-relative posix path for relative specifiers, else null.
 */
export function ruleBroken(file, specifier, target, typeOnly = false) {
  const layer = layerOf(file);
  if (target === null && isElectron(specifier)) {
    if (ELECTRON_LAYERS.includes(layer)) return null;
    if (NODE_LAYERS.includes(layer) || layer === 'shared') {
      return `${layer} must not import electron: it runs in plain Node; only electron/main and electron/preload may`;
    }
    return `only electron/main and electron/preload may import electron`;
  }
  if (target !== null) {
    if (target.startsWith('../')) return `imports must stay inside the repository`;
    const targetLayer = layerOf(target);
    if (layer === 'shared' && !within(target, 'shared')) return `shared/ imports only zod and its own files, never ${targetLayer}/`;
    if (layer === 'renderer' && !within(target, 'renderer') && !within(target, 'shared')) {
      return `renderer/ imports only shared/, its own files, react/react-dom and CSS`;
    }
    if (NODE_LAYERS.includes(layer) && ELECTRON_LAYERS.includes(targetLayer)) {
      return `${layer} must not import ${targetLayer}: it would load electron; only electron/main and electron/preload may`;
    }
    if (layer.startsWith('electron') && within(target, 'renderer')) return `electron/ must not import renderer/; share code through shared/`;
    if (!typeOnly && TYPE_ONLY.some(([from, to]) => layer === from && targetLayer === to)) {
      return `${layer} may import only types from ${targetLayer} (use \`import type\`); the engine in electron/engine wires them together`;
    }
    return null;
  }
  // A bare specifier: a package or a Node built-in.
  if (layer === 'shared' && !SHARED_PACKAGES.includes(packageOf(specifier))) {
    return `shared/ imports only zod and its own files`;
  }
  if (layer === 'renderer' && !RENDERER_PACKAGES.includes(packageOf(specifier)) && !isCss(specifier)) {
    return `renderer/ imports only shared/, its own files, react/react-dom and CSS`;
  }
  return null;
}

/** Violations in one file's text. file: repository-relative path (posix or native separators). */
export function checkSource(file, text) {
  const posixFile = file.split(sep).join('/');
  const violations = [];
  for (const { specifier, line, typeOnly } of importsOf(posixFile, text)) {
    const target = isRelative(specifier) ? posix.normalize(posix.join(posix.dirname(posixFile), specifier)) : null;
    const rule = ruleBroken(posixFile, specifier, target, typeOnly);
    if (rule) violations.push({ file: posixFile, line, specifier, rule, message: `${posixFile}:${line} imports '${specifier}' (${rule})` });
  }
  return violations;
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

/** Checks the whole tree under root. */
export function checkLayers(root) {
  const files = sourceFiles(root);
  const violations = files.flatMap((file) => checkSource(file, readFileSync(join(root, file), 'utf8')));
  return { files, violations };
}

function main(argv) {
  // --root DIR checks another tree (the tests use it to prove that violations fail the script).
  const rootFlag = argv.indexOf('--root');
  const root = rootFlag >= 0 && argv[rootFlag + 1] ? resolve(argv[rootFlag + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const { files, violations } = checkLayers(root);
  if (violations.length > 0) {
    for (const violation of violations) console.error(violation.message);
    console.error(`\nlint:layers: ${violations.length} layering violation(s) in ${files.length} files.`);
    process.exit(1);
  }
  console.log(`lint:layers: ${files.length} files, no layering violations.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main(process.argv.slice(2));

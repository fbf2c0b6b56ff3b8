/**
 * Tempora's layering, as dependency-cruiser rules. Checked by `npm run lint:layers`
 * (scripts/check-layers.mjs, part of `npm test`) and proven rule by rule in test/unit/layering.test.ts.
 * Also usable directly: `npx depcruise --config .dependency-cruiser.cjs electron shared renderer`.
 *
 * The house, bottom to top (folders under electron/):
 *
 *   shared/            zod, temporal-polyfill (the zone module) and its own files only
 *   electron/memory/   the store (better-sqlite3, LanceDB); shared/ and packages
 *   electron/llm/      node-llama-cpp; shared/
 *   electron/assistant memory (via electron/memory/index.ts only), llm, shared/
 *   electron/sync/     beside assistant: memory (via index.ts only), shared/ (sync runner, targets)
 *   electron/engine/   assistant, memory (via index.ts), llm, shared/
 *   faces              electron/main, preload, cli, server, mcp: engine and below; never another face,
 *                      except that cli may import server (the CLI may start the bridge) and
 *                      electron/mcp/index.ts (`tempora mcp` serves MCP over stdio), and main may
 *                      import electron/mcp/index.ts (the app serves MCP over HTTP when turned on)
 *   renderer/          shared/, its own files, react, react-dom, @tanstack/*, CSS
 *
 * Only electron/main and electron/preload import 'electron'; only electron/memory imports
 * better-sqlite3; nothing outside electron/memory reaches past electron/memory/index.ts; no cycles.
 * Type-only imports count everywhere (tsPreCompilationDeps), so do require(), import(), import x =
 * require(), import('x') types and require.resolve().
 *
 * Every rule is an error, and its comment says the rule in words: lint:layers prints it with the
 * importing file, line and import.
 */

/** The faces: what users and other programs talk to. Each sits on the engine. */
const FACES = ['main', 'preload', 'cli', 'server', 'mcp'];
const face = (names) => `^electron/(${names.join('|')})/`;
/** A package as it resolves (through node_modules, also a symlinked one). */
const pkg = (names) => `(^|/)node_modules/(${names.join('|')})/`;
/** 'electron' and its sub-modules; registered as built-ins below, so they resolve to these names. */
const ELECTRON_MODULES = ['electron', 'electron/main', 'electron/renderer', 'electron/common', 'electron/utility'];
const ELECTRON = `^(${ELECTRON_MODULES.join('|')})$`;
const MEMORY_INDEX = '^electron/memory/index\\.ts$';
/** Test files are exempt from the better-sqlite3 rule (none live under electron/ today). */
const TESTS = ['\\.(test|spec)\\.[cm]?[jt]sx?$', '(^|/)__tests__/'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere, type-only imports included: a cycle means two modules are really one, or a layer is upside down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import must resolve to a file, a package or a built-in: an import that cannot be resolved cannot be checked against the layering.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'shared-only-zod-and-itself',
      severity: 'error',
      comment: 'shared/ imports only zod, temporal-polyfill and its own files: never electron/, renderer/, Node built-ins or other packages.',
      from: { path: '^shared/' },
      // 'electron' itself is left to only-main-and-preload-import-electron, so it is reported once.
      to: { pathNot: ['^shared/', pkg(['zod', 'temporal-polyfill']), ELECTRON] },
    },
    {
      name: 'memory-not-to-upper-layers',
      severity: 'error',
      comment: `electron/memory/ is the bottom of electron/: it imports shared/, its own files and packages, never electron/llm, assistant, sync, engine or a face (${FACES.join(', ')}).`,
      from: { path: '^electron/memory/' },
      to: { path: ['^electron/(llm|assistant|sync|engine)/', face(FACES)] },
    },
    {
      name: 'memory-store-at-the-bottom',
      severity: 'error',
      comment: 'Inside memory, store/ is the bottom: it imports its own files and shared/, never the temporal rules, text search, vectors, transfer, sync or the facades (memory*.ts, index.ts).',
      from: { path: '^electron/memory/store/' },
      to: { path: ['^electron/memory/(temporal|text-search|vectors|transfer|sync)/', '^electron/memory/[^/]+[.]ts$'], pathNot: ['^electron/memory/memory-errors[.]ts$'] },
    },
    {
      name: 'memory-rooms-in-order',
      severity: 'error',
      comment:
        'Inside memory the rooms stand in one order — store, temporal, text-search, vectors, transfer — and each imports only those below it (and memory-errors, and the facade\'s types in memory-api.ts); none imports the facades (memory*.ts, index.ts), which stand on all of them.',
      from: { path: '^electron/memory/(temporal|text-search|vectors)/' },
      to: {
        path: ['^electron/memory/[^/]+[.]ts$', '^electron/memory/transfer/'],
        pathNot: ['^electron/memory/memory-errors[.]ts$', '^electron/memory/memory-api[.]ts$'],
      },
    },
    {
      name: 'memory-rooms-below-sync',
      severity: 'error',
      comment: 'Sync is the top room of memory (store, temporal, text-search, vectors, transfer, sync): no room below imports it.',
      from: { path: '^electron/memory/(temporal|text-search|vectors|transfer)/' },
      to: { path: '^electron/memory/sync/' },
    },
    {
      name: 'memory-sync-below-the-facades',
      severity: 'error',
      comment: "Memory's sync room imports the rooms below it (store, temporal, transfer) and memory-errors, never the facades (memory*.ts, index.ts), which stand on it.",
      from: { path: '^electron/memory/sync/' },
      to: { path: '^electron/memory/[^/]+[.]ts$', pathNot: ['^electron/memory/memory-errors[.]ts$', '^electron/memory/memory-api[.]ts$'] },
    },
    {
      name: 'memory-temporal-below-search',
      severity: 'error',
      comment: 'The temporal rules stand below text search and vectors: they never import them.',
      from: { path: '^electron/memory/temporal/' },
      to: { path: '^electron/memory/(text-search|vectors)/' },
    },
    {
      name: 'memory-search-below-vectors',
      severity: 'error',
      comment: 'Text search stands below the vectors: it never imports them.',
      from: { path: '^electron/memory/text-search/' },
      to: { path: '^electron/memory/vectors/' },
    },
    {
      name: 'memory-not-to-node-llama-cpp',
      severity: 'error',
      comment: 'electron/memory/ never imports node-llama-cpp: models are electron/llm\'s business.',
      from: { path: '^electron/memory/' },
      to: { path: pkg(['node-llama-cpp']) },
    },
    {
      name: 'node-llama-cpp-loaded-with-a-model',
      severity: 'error',
      comment:
        'node-llama-cpp is loaded by the first model load or download (~1–2 s), never at start: only the modules a load imports dynamically (llama-calls, llama-runtime, model-file-check) import it statically; every other module imports it, or them, with import() or for types.',
      from: { pathNot: '^electron/llm/(llama-calls|llama-runtime|model-file-check)[.]ts$' },
      to: { path: [pkg(['node-llama-cpp']), '^electron/llm/(llama-calls|llama-runtime|model-file-check)[.]ts$'], dynamic: false, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    {
      name: 'llm-not-to-other-layers',
      severity: 'error',
      comment: `electron/llm/ imports shared/ and packages (node-llama-cpp), never electron/memory, assistant, sync, engine or a face (${FACES.join(', ')}).`,
      from: { path: '^electron/llm/' },
      to: { path: ['^electron/(memory|assistant|sync|engine)/', face(FACES)] },
    },
    {
      name: 'assistant-not-to-engine-or-faces',
      severity: 'error',
      comment: `electron/assistant/ imports memory (through electron/memory/index.ts), llm and shared/, never electron/sync (beside it), electron/engine or a face (${FACES.join(', ')}).`,
      from: { path: '^electron/assistant/' },
      to: { path: ['^electron/(sync|engine)/', face(FACES)] },
    },
    {
      name: 'sync-on-memory-only',
      severity: 'error',
      comment: `electron/sync/ (the sync runner and its targets) stands beside electron/assistant: it imports memory (through electron/memory/index.ts), shared/ and packages, never electron/llm, assistant, engine or a face (${FACES.join(', ')}).`,
      from: { path: '^electron/sync/' },
      to: { path: ['^electron/(llm|assistant|engine)/', face(FACES)] },
    },
    {
      name: 'engine-not-to-faces',
      severity: 'error',
      comment: `electron/engine/ imports assistant, memory (through electron/memory/index.ts), llm and shared/, never a face (${FACES.join(', ')}).`,
      from: { path: '^electron/engine/' },
      to: { path: face(FACES) },
    },
    {
      name: 'face-not-to-other-face',
      severity: 'error',
      comment: `A face (${FACES.join(', ')}) imports the engine and the layers below it, never another face (only electron/cli may import electron/server; electron/cli and electron/main may import electron/mcp/index.ts).`,
      // $1 in `to` is the importing face: its own files are fine.
      from: { path: face(FACES.filter((name) => name !== 'cli' && name !== 'main')) },
      to: { path: face(FACES), pathNot: '^electron/$1/' },
    },
    {
      name: 'cli-not-to-other-face',
      severity: 'error',
      comment: 'electron/cli imports the engine, the layers below it, electron/server (to start the bridge) and electron/mcp through its index.ts (for `tempora mcp`), never another face (main, preload) or electron/mcp\'s inner files.',
      from: { path: '^electron/cli/' },
      to: { path: face(FACES.filter((name) => name !== 'cli' && name !== 'server')), pathNot: '^electron/mcp/index\\.ts$' },
    },
    {
      name: 'main-not-to-other-face',
      severity: 'error',
      comment: 'electron/main imports the engine, the layers below it and electron/mcp through its index.ts (MCP over HTTP, when turned on), never another face (preload, cli, server) or electron/mcp\'s inner files.',
      from: { path: '^electron/main/' },
      to: { path: face(FACES.filter((name) => name !== 'main')), pathNot: '^electron/mcp/index\\.ts$' },
    },
    {
      name: 'memory-only-through-index',
      severity: 'error',
      comment: 'Outside electron/memory/, the store is reached only through electron/memory/index.ts, never its internals (store/, temporal/, text-search/, vectors/, transfer/ ...).',
      from: { pathNot: '^electron/memory/' },
      to: { path: '^electron/memory/', pathNot: MEMORY_INDEX },
    },
    {
      name: 'sqlite-only-in-memory',
      severity: 'error',
      comment: 'Only electron/memory/ imports better-sqlite3 (only memory runs SQL); the rest of electron/ goes through electron/memory/index.ts.',
      from: { path: '^electron/', pathNot: ['^electron/memory/', ...TESTS] },
      to: { path: pkg(['better-sqlite3', '@types/better-sqlite3']) },
    },
    {
      name: 'only-main-and-preload-import-electron',
      severity: 'error',
      comment: 'Only electron/main and electron/preload import \'electron\': everything else runs in plain Node (tests, the tempora command, the bridge) or in the sandboxed renderer.',
      from: { pathNot: '^electron/(main|preload)/' },
      to: { path: [ELECTRON, pkg(['electron'])] },
    },
    {
      name: 'electron-not-to-renderer',
      severity: 'error',
      comment: 'Nothing under electron/ imports renderer/: code both sides need lives in shared/.',
      from: { path: '^electron/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'renderer-not-to-node-builtins',
      severity: 'error',
      comment: 'renderer/ runs in the sandboxed browser window: it never imports Node built-ins (node:*, fs, path ...).',
      from: { path: '^renderer/' },
      // 'electron' is registered as a built-in; it is left to only-main-and-preload-import-electron.
      to: { dependencyTypes: ['core'], pathNot: ELECTRON },
    },
    {
      name: 'renderer-only-shared-and-ui-packages',
      severity: 'error',
      comment: 'renderer/ imports only shared/, its own files (CSS included) and the UI packages react, react-dom and @tanstack/*: never electron/ or other packages.',
      from: { path: '^renderer/' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: ['^renderer/', '^shared/', pkg(['react', 'react-dom', '@tanstack/[^/]+', '@types/react', '@types/react-dom'])],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: `import type`, `export type`, import('x') types.
    tsPreCompilationDeps: true,
    // No `paths` in either tsconfig, so tsconfig.node.json (shared/, electron/) resolves renderer/ too.
    tsConfig: { fileName: 'tsconfig.node.json' },
    builtInModules: { add: ELECTRON_MODULES },
    exoticRequireStrings: ['require.resolve'],
    detectProcessBuiltinModuleCalls: true,
    moduleSystems: ['es6', 'cjs', 'tsd'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};

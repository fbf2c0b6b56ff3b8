/**
 * The MCP Bundle (.mcpb) for one-click install in Claude Desktop: `npm run mcpb` (and `npm run dist`)
 * builds dist/tempora-VERSION-PLATFORM-ARCH.mcpb from electron-vite's output (out/main, built first)
 * with @anthropic-ai/mcpb: the server is the built `tempora mcp` command (server/cli.js) run by the
 * Node that Claude Desktop brings, on the memory the app uses (its default data directory). It learns
 * nothing itself, as `tempora mcp` without --learn: remembered messages wait for the app to learn
 * them, so no model runtime is shipped (node-llama-cpp's binaries and LanceDB's stay out). The
 * manifest's tools are the real tool table: the built server is started and an MCP SDK client lists
 * them. The manifest is checked by the package's own validator before packing.
 *
 * better-sqlite3 is this machine's Node build, so a bundle is for one platform and architecture and
 * for a Node of the same ABI (compatibility says which).
 *
 * Exported for the test: buildBundle({ root, outDir, mainDir }) → { file, manifest, staged }; mainDir:
 * electron-vite's main output (default out/main; the test builds its own with --outDir).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What `tempora mcp` never loads (no models: it learns nothing itself), or what only builds and tests use. */
const LEFT_OUT = [
  /^node_modules\/@node-llama-cpp\//,
  /^node_modules\/@lancedb\/lancedb-/,
  /^node_modules\/node-llama-cpp\/llama\/gitRelease\.bundle$/,
  /^node_modules\/better-sqlite3\/(deps|src)\//,
  /^node_modules\/(tsx|esbuild|@esbuild|typescript)\//,
  /\.map$/,
];
/** better-sqlite3's build tree but for the addon itself (tested against the path alone: its folders stay). */
const BUILD_TREE = /^node_modules\/better-sqlite3\/build\/(?!Release$|Release\/better_sqlite3\.node$)/;

/** The production packages' folders, relative to root (npm's own list, offline). */
function productionPackages(root) {
  const listed = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = listed.stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) throw new Error(`npm ls listed no production packages: ${listed.stderr}`);
  return lines
    .slice(1)
    .map((line) => relative(root, line).split(sep).join('/'))
    .filter((path) => path.startsWith('node_modules/'));
}

/** The tools of the built server, as an MCP client lists them. */
async function listTools(root, serverFile) {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const data = mkdtempSync(join(tmpdir(), 'tempora-mcpb-tools-'));
  const client = new Client({ name: 'tempora-mcpb-build', version: '1.0.0' });
  try {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverFile, 'mcp', '--data', data], cwd: root, env: { ...process.env, LANCEDB_LOG: 'error' }, stderr: 'ignore' }));
    const { tools } = await client.listTools();
    return tools.map((tool) => ({ name: tool.name, description: (tool.description ?? '').split('\n')[0] }));
  } finally {
    await client.close().catch(() => undefined);
    rmSync(data, { recursive: true, force: true });
  }
}

function manifestFor(pkg, tools) {
  return {
    manifest_version: '0.3',
    name: 'tempora',
    display_name: 'Tempora',
    version: pkg.version,
    description: 'Your Tempora memory for Claude: facts with when each was true, and what Tempora knew when.',
    long_description:
      'Tempora keeps what you tell it as facts with validity intervals, on this computer. This bundle serves the memory the Tempora app uses ' +
      '(its default data directory) over MCP: search it, list facts as of a time or as known at a time, see a fact’s history, correct, close or ' +
      'forget a fact. Messages it is given are queued for the Tempora app to learn. Install the Tempora app too.',
    author: { name: pkg.author.name, email: pkg.author.email },
    homepage: pkg.homepage,
    license: pkg.license,
    keywords: ['memory', 'bitemporal', 'local-first'],
    server: {
      type: 'node',
      entry_point: 'server/cli.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/cli.js', 'mcp'], env: { LANCEDB_LOG: 'error' } },
    },
    tools,
    compatibility: { platforms: [process.platform], runtimes: { node: `>=20.19 <${Number(process.versions.node.split('.')[0]) + 1}` } },
  };
}

/** Stages the bundle's folder, checks its manifest with the package's validator, and packs it. */
export async function buildBundle({ root = ROOT, outDir = join(root, 'dist'), mainDir = join(root, 'out', 'main') } = {}) {
  const { validateManifest, packExtension } = await import('@anthropic-ai/mcpb');
  const cli = join(mainDir, 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npx electron-vite build\` first (npm run mcpb does).`);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const staged = join(outDir, 'mcpb', 'tempora');
  rmSync(staged, { recursive: true, force: true });
  mkdirSync(staged, { recursive: true });

  cpSync(mainDir, join(staged, 'server'), { recursive: true, filter: (source) => !source.endsWith('.map') });
  for (const folder of productionPackages(root)) {
    cpSync(join(root, folder), join(staged, folder), {
      recursive: true,
      dereference: true,
      filter: (source) => {
        const path = relative(root, source).split(sep).join('/');
        // A nested node_modules is a package of its own (copied when npm lists it).
        if (path !== folder && path.startsWith(`${folder}/node_modules/`)) return false;
        return !BUILD_TREE.test(path) && !LEFT_OUT.some((pattern) => pattern.test(path) || pattern.test(`${path}/`));
      },
    });
  }
  writeFileSync(join(staged, 'package.json'), `${JSON.stringify({ name: 'tempora-mcpb', version: pkg.version, private: true, type: 'module' }, null, 2)}\n`);
  const icon = join(root, 'build', 'icons', 'png', '512x512.png');
  const tools = await listTools(root, join(staged, 'server', 'cli.js'));
  const manifest = { ...manifestFor(pkg, tools), ...(existsSync(icon) ? { icon: 'icon.png' } : {}) };
  if (existsSync(icon)) cpSync(icon, join(staged, 'icon.png'));
  writeFileSync(join(staged, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  if (!validateManifest(join(staged, 'manifest.json'))) throw new Error(`the bundle's manifest is not valid (${join(staged, 'manifest.json')}); see above.`);
  const file = join(outDir, `tempora-${pkg.version}-${process.platform}-${process.arch}.mcpb`);
  if (!(await packExtension({ extensionPath: staged, outputPath: file, silent: true }))) throw new Error(`mcpb could not pack ${staged}`);
  return { file, manifest, staged };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildBundle().then(
    ({ file, manifest }) => console.log(`MCP Bundle: ${file} (${manifest.tools.length} tools)`),
    (error) => {
      console.error(`build-mcpb: ${error.message}`);
      process.exit(1);
    },
  );
}

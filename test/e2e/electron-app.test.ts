/**
 * The real desktop app, driven by Playwright's Electron support: the window opens on the app's own
 * page, lists the facts of a prepared data directory, carries the CSP, has no Node in the page
 * and exactly the contract's API in window.tempora, cannot navigate away, and quits gracefully
 * (the memory is intact afterwards).
 *
 * Runs only where it can: the Electron binary must be installed (CI installs with
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1, so it is skipped there, saying why), and on Linux a display is
 * needed (run under xvfb-run on a headless machine). `npm start` installs the binary and builds
 * better-sqlite3 for Electron once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, type TemporaApi } from '../../shared/api-contract';
import { openMemory } from '../../electron/memory/index';
import { electronNativeBindingPath } from '../../electron/main/native-binding';

const root = resolve(import.meta.dirname, '../..');

/** Why the test cannot run here, or null when it can. */
function whyNot(): { reason: string } | { binary: string } {
  let binary: string;
  try {
    binary = createRequire(join(root, 'package.json'))('electron') as string;
  } catch (error) {
    return { reason: `the Electron binary is not installed (${(error as Error).message.split('\n')[0]}); \`npm start\` or \`node node_modules/electron/install.js\` installs it` };
  }
  if (!existsSync(binary)) return { reason: `the Electron binary is not installed (no ${binary}); \`node node_modules/electron/install.js\` installs it` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY is not set): run the tests under xvfb-run to include the Electron test' };
  }
  return { binary };
}

const availability = whyNot();
const skipReason = 'reason' in availability ? availability.reason : null;
if (skipReason) console.warn(`electron-app: skipped: ${skipReason}`);

let dir: string;
let data: string;
let app: ElectronApplication;
let window: Page;

/** The page's globals this test reads (the Node-side typecheck has no DOM library). */
interface PageGlobals {
  tempora?: TemporaApi;
  require?: unknown;
  process?: unknown;
  module?: unknown;
  Buffer?: unknown;
  location: { href: string };
  document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null; body: { innerText: string } };
}

function ensureBuilt(): void {
  const version = (JSON.parse(spawnSync(process.execPath, ['-p', 'JSON.stringify(require("electron/package.json").version)'], { cwd: root, encoding: 'utf8' }).stdout) as string);
  const binding = electronNativeBindingPath({ isPackaged: false, appPath: root, resourcesPath: '', electronVersion: version });
  if (!existsSync(binding)) {
    const ensured = spawnSync(process.execPath, ['scripts/ensure-electron.mjs'], { cwd: root, stdio: 'inherit' });
    if (ensured.status !== 0) throw new Error('scripts/ensure-electron.mjs could not build better-sqlite3 for Electron (see above)');
  }
  const built = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('electron-vite build failed (see above)');
}

describe.skipIf(skipReason !== null)('the Electron app', () => {
  beforeAll(async () => {
    if (!('binary' in availability)) return;
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'tempora-electron-'));
    data = join(dir, 'data');
    const memory = openMemory({ dataDir: data });
    memory.facts.observe(
      [
        { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
        { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
      ],
      { where: 'electron test' },
    );
    memory.close();
    const env = { ...process.env, TEMPORA_DATA_DIR: data } as Record<string, string>;
    delete env.ELECTRON_RENDERER_URL;
    delete env.ELECTRON_RUN_AS_NODE;
    app = await electron.launch({
      executablePath: availability.binary,
      // Chromium refuses to run as root with its OS sandbox; the page's own sandbox stays on.
      // Its own user-data directory: its own single-instance lock, so a Tempora the user has open
      // does not take the launch over (and the test never touches that one's data).
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), `--user-data-dir=${join(dir, 'user-data')}`, root],
      cwd: root,
      env,
      timeout: 60_000,
    });
    window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
  }, 300_000);

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens one window on the app’s own page', async () => {
    expect(app.windows()).toHaveLength(1);
    expect(window.url()).toBe('app://tempora/index.html');
    expect(await window.title()).toBe('Tempora');
  });

  it('lists the facts of the data directory through window.tempora', async () => {
    const facts = await window.evaluate(() => (globalThis as unknown as PageGlobals).tempora!.listFacts({}));
    expect(facts.facts.map((f) => f.object)).toEqual(['B']);
    const asOf = await window.evaluate(() => (globalThis as unknown as PageGlobals).tempora!.listFacts({ asOf: '2026-09-10T00:00:00.000Z' }));
    expect(asOf.facts.map((f) => f.object)).toEqual(['A']);
  });

  it('refuses a malformed payload with a message naming the field', async () => {
    const message = await window.evaluate(() =>
      (globalThis as unknown as PageGlobals).tempora!.listFacts({ asOf: 'yesterday' }).then(
        () => 'accepted',
        (error: Error) => error.message,
      ),
    );
    expect(message).toMatch(/asOf/);
  });

  it('has a strict CSP and no eval', async () => {
    const meta = await window.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null);
    expect(meta).toContain("default-src 'none'");
    expect(meta).toContain("script-src 'self'");
    const evaluated = await window.evaluate(() => {
      try {
        return String((0, eval)('1 + 1'));
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(evaluated).toBe('EvalError');
  });

  it('has no Node in the page, and exactly the contract’s API', async () => {
    const globals = await window.evaluate(() => {
      const page = globalThis as unknown as PageGlobals;
      return {
        require: typeof page.require,
        process: typeof page.process,
        module: typeof page.module,
        Buffer: typeof page.Buffer,
        api: Object.keys(page.tempora ?? {}).sort(),
      };
    });
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', Buffer: 'undefined', api: [...Object.keys(apiCalls), 'onEvent'].sort() });
  });

  it('runs the window sandboxed and context-isolated', async () => {
    type Prefs = { contextIsolation?: boolean; sandbox?: boolean; nodeIntegration?: boolean; webviewTag?: boolean };
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      // Undocumented in the typings, but present: the preferences the page was really created with.
      const contents = BrowserWindow.getAllWindows()[0]!.webContents as unknown as { getLastWebPreferences?(): Prefs | null };
      const p = contents.getLastWebPreferences?.() ?? null;
      return p && { contextIsolation: p.contextIsolation, sandbox: p.sandbox, nodeIntegration: p.nodeIntegration, webviewTag: p.webviewTag };
    });
    if (prefs) expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false, webviewTag: false });
    // Whatever the main process reports, a sandboxed, isolated page sees no Node (checked above) and
    // cannot reach the preload's ipcRenderer.
    expect(await window.evaluate(() => typeof (globalThis as unknown as { ipcRenderer?: unknown }).ipcRenderer)).toBe('undefined');
  });

  it('does not navigate away or open windows', async () => {
    await window.evaluate(() => {
      (globalThis as unknown as PageGlobals).location.href = 'https://example.com/';
    });
    await window.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com/'));
    await new Promise((r) => setTimeout(r, 500));
    expect(window.url()).toBe('app://tempora/index.html');
    expect(app.windows()).toHaveLength(1);
  });

  it('quits gracefully, leaving the memory intact', async () => {
    await app.close();
    const memory = openMemory({ dataDir: data });
    try {
      expect(memory.facts.list({}).map((f) => f.object)).toEqual(['B']);
    } finally {
      memory.close();
    }
  });
});


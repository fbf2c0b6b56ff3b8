/**
 * A real engine on a temporary data directory, the loopback bridge serving the built renderer, and
 * Chromium with the page open at the bridge's address: what `tempora serve` gives a user.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { TemporaEngine, type EngineOptions } from '../../../electron/engine/index';
import { startBridge, type Bridge, type BridgeOptions } from '../../../electron/server/bridge-server';
import { launchBrowser, type Browser } from './browser';
import { ensureRendererBuilt } from './renderer-build';
import { screenshot } from './screenshots';

export interface UiSession {
  dir: string;
  engine: TemporaEngine;
  bridge: Bridge;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export interface StartUiOptions {
  engine?: Partial<EngineOptions>;
  seed?: (engine: TemporaEngine) => void | Promise<void>;
  locale?: string;
  mcp?: (engine: TemporaEngine) => BridgeOptions['mcp'];
  commandOnPath?: BridgeOptions['commandOnPath'];
}

export async function startUi(options: StartUiOptions = {}): Promise<UiSession> {
  const rendererDir = await ensureRendererBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tempora-ui-'));
  const engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, ...options.engine });
  await options.seed?.(engine);
  const bridge = await startBridge({ engine, rendererDir, port: 0, mcp: options.mcp?.(engine), ...(options.commandOnPath ? { commandOnPath: options.commandOnPath } : {}) });
  const browser = await launchBrowser({ locale: options.locale });
  await browser.page.goto(bridge.url);
  await browser.page.locator('nav[aria-label="Main"]').waitFor();
  return {
    dir,
    engine,
    bridge,
    browser,
    page: browser.page,
    close: async () => {
      await browser.close().catch(() => undefined);
      await bridge.close().catch(() => undefined);
      await engine.close(2_000).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Goes to a screen by its hash route (#/timeline, #/facts/ID …). */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

export interface UseUiOptions extends StartUiOptions {
  /** The user's zone, TEMPORA_TZ, stubbed while the describe runs. */
  zone?: string;
  /** Other variables stubbed while the describe runs (TZ, LANCEDB_LOG …). */
  env?: Record<string, string>;
  /** A failed test's screenshot is `failed-<shotPrefix>-<its name>`, or `failed-<its name>` without one. */
  shotPrefix?: string;
  /** How much of the test's name goes into that screenshot's name (40 characters unless told). */
  shotNameLength?: number;
}

/**
 * One UI for the tests of the current describe: the env stubbed and the UI started before them
 * (options read then, so a function may use what an earlier beforeAll made), a screenshot of each
 * test that fails, and the UI closed and the env unstubbed after them. A later beforeAll sees the
 * UI started; a later afterAll runs before it closes (vitest runs after-hooks last-registered first).
 */
export function useUi(options: UseUiOptions | (() => UseUiOptions) = {}): () => UiSession {
  let ui: UiSession | undefined;
  let shotName = (name: string) => `failed-${name.slice(0, 40).replace(/[^\w-]+/g, '-')}`;
  beforeAll(async () => {
    const { zone, env = {}, shotPrefix, shotNameLength = 40, ...start } = typeof options === 'function' ? options() : options;
    shotName = (name) => `failed-${shotPrefix ? `${shotPrefix}-` : ''}${name.slice(0, shotNameLength).replace(/[^\w-]+/g, '-')}`;
    if (zone !== undefined) vi.stubEnv('TEMPORA_TZ', zone);
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    ui = await startUi(start);
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && ui) await screenshot(ui.page, shotName(context.task.name));
  });
  afterAll(async () => {
    await ui?.close();
    ui = undefined;
    vi.unstubAllEnvs();
  });
  return () => {
    if (!ui) throw new Error('the UI is not started: use it in a test or in a hook after useUi');
    return ui;
  };
}

/**
 * A real engine on a temporary data directory, the loopback bridge serving the built renderer, and
 * Chromium with the page open at the bridge's address: what `tempora serve` gives a user.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TemporaEngine, type EngineOptions } from '../../../electron/engine/index';
import { startBridge, type Bridge, type BridgeOptions } from '../../../electron/server/bridge-server';
import { launchBrowser, type Browser } from './browser';
import { ensureRendererBuilt } from './renderer-build';

export interface UiSession {
  dir: string;
  engine: TemporaEngine;
  bridge: Bridge;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export async function startUi(options: { engine?: Partial<EngineOptions>; seed?: (engine: TemporaEngine) => void | Promise<void>; locale?: string; mcp?: (engine: TemporaEngine) => BridgeOptions['mcp']; commandOnPath?: BridgeOptions['commandOnPath'] } = {}): Promise<UiSession> {
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

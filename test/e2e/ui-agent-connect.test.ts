/**
 * Settings → Connect an agent in Chromium over the bridge, with HOME (and the XDG folders) pointed at
 * a temporary folder (issue #30): the clients found there, each with its config file and the entry
 * Connect writes; Connect and Remove by keyboard, saying the file and the backup of the old one; a
 * client not installed and a config that is not JSON said in words, the file never touched; the HTTP
 * entry offered once the app's MCP is on, with its kept address and token, and not for Claude
 * Desktop; axe-core finds nothing serious in the panel at 1280 and 900 px, light and dark; a Connect
 * the bridge refuses as busy (helpers/refused-calls.ts) says so in its kind's sentence.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpService } from '../../electron/main/mcp-service';
import { CHROMIUM_MISSING } from './helpers/browser';
import { BUSY, BUSY_SENTENCE, routeRefusals } from './helpers/refused-calls';
import { screenshot } from './helpers/screenshots';
import { go, startUi, type UiSession } from './helpers/ui-session';

const KEPT = ['HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'TEMPORA_TZ'] as const;
const saved = Object.fromEntries(KEPT.map((name) => [name, process.env[name]]));

let ui: UiSession;
let service: McpService;
let home: string;
const cursorDir = () => join(home, '.cursor');
const cursorFile = () => join(cursorDir(), 'mcp.json');
const janFile = () => join(home, '.local', 'share', 'Jan', 'data', 'mcp_config.json');
const backups = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.bak')).sort();
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
const BROKEN = '{ "mcpServers": { "jan-own": ';

/** Presses a control by keyboard: focused, then Enter (a radio: Space). */
async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await control.press(key);
}

describe.skipIf(CHROMIUM_MISSING !== null)('Settings → Connect an agent', () => {
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'tempora-agents-home-'));
    Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), TEMPORA_TZ: 'UTC' });
    mkdirSync(cursorDir(), { recursive: true });
    writeFileSync(cursorFile(), JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }, null, 2));
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true }); // installed, no config file yet
    mkdirSync(join(home, '.local', 'share', 'Jan', 'data'), { recursive: true });
    writeFileSync(janFile(), BROKEN);
    ui = await startUi({ engine: { startWorker: false }, mcp: (engine) => (service = new McpService(engine)) });
  });

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && ui) await screenshot(ui.page, `failed-agents-${context.task.name.slice(0, 40).replace(/[^\w-]+/g, '-')}`);
  });

  afterAll(async () => {
    await service?.close();
    await ui?.close();
    for (const name of KEPT) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(home, { recursive: true, force: true });
  });

  const row = (client: string) => ui.page.getByTestId(`agent-${client}`);

  it('lists the clients found, with their files and what Connect adds; not installed and not JSON in words', async () => {
    await go(ui.page, '#/settings');
    await expect.poll(() => ui.page.locator('.agent-row').count()).toBe(5);
    const cursor = row('cursor');
    expect(await cursor.getByTestId('agent-state').textContent()).toBe('not connected');
    expect(await cursor.textContent()).toContain(cursorFile());
    expect(JSON.parse((await cursor.getByTestId('agent-entry').textContent()) ?? '')).toEqual({ tempora: { command: 'tempora', args: ['mcp'] } });
    expect(await row('vscode').getByTestId('agent-entry').count()).toBe(0);
    expect(await row('vscode').getByTestId('agent-state').textContent()).toBe('not installed');
    expect(await row('vscode').getByTestId('agent-problem').textContent()).toBe(
      `VS Code does not seem to be installed: there is no ${join(home, '.config', 'Code', 'User')}. Install it and open it once, then try again.`,
    );
    expect(await row('vscode').getByTestId('agent-connect').count()).toBe(0); // nothing to press: the sentence says what to do
    expect(await row('jan').getByTestId('agent-problem').textContent()).toBe(`${janFile()} is not JSON (line 1, column 30); it was left as it is: fix it or move it away, then try again.`);
    expect(await row('jan').getByTestId('agent-connect').isDisabled()).toBe(true);
    expect(await ui.page.getByTestId('command-on-path').count()).toBe(0); // the macOS and Windows app's offer
  });

  it('connects and removes by keyboard, saying the file and the backup; the other servers stay', async () => {
    const cursor = row('cursor');
    await press(cursor.getByTestId('agent-connect'));
    await expect.poll(() => cursor.getByTestId('agent-state').textContent()).toBe('connected (stdio)');
    const [first] = backups(cursorDir());
    expect(first).toBeDefined();
    expect(await cursor.getByTestId('agent-said').textContent()).toBe(
      `Added Tempora to Cursor (${cursorFile()}). Restart Cursor to use it. The old file is kept as ${join(cursorDir(), first!)}.`,
    );
    expect(json(cursorFile()).mcpServers).toEqual({ other: { command: 'other-server' }, tempora: { command: 'tempora', args: ['mcp'] } });
    expect(await cursor.getByTestId('agent-connect').isDisabled()).toBe(true); // already this entry
    // Connect is off now: the focus on what it said, not on <body>.
    const focusedSays = () => ui.page.evaluate(() => (document.activeElement === document.body ? 'BODY' : (document.activeElement?.textContent ?? '')));
    await expect.poll(focusedSays).toMatch(/^Added Tempora to Cursor/);

    // Claude Desktop has no file yet: written, no backup to speak of.
    await press(row('claude-desktop').getByTestId('agent-connect'));
    await expect.poll(() => row('claude-desktop').getByTestId('agent-said').textContent()).toBe(
      `Added Tempora to Claude Desktop (${join(home, '.config', 'Claude', 'claude_desktop_config.json')}). Restart Claude Desktop to use it.`,
    );

    await press(cursor.getByTestId('agent-remove'));
    await expect.poll(() => cursor.getByTestId('agent-state').textContent()).toBe('not connected');
    expect(json(cursorFile()).mcpServers).toEqual({ other: { command: 'other-server' } });
    expect(backups(cursorDir())).toHaveLength(2);
    expect(await cursor.getByTestId('agent-said').textContent()).toMatch(/^Removed Tempora from Cursor \(.+\)\. Restart Cursor to stop using it\. The old file is kept as .+\.bak\.$/);
    // Remove is gone now: the focus on what it said.
    await expect.poll(focusedSays).toMatch(/^Removed Tempora from Cursor/);
    expect(readFileSync(janFile(), 'utf8')).toBe(BROKEN);
  });

  it('says it in words and changes nothing when the file stopped being JSON after the screen read it', async () => {
    const cursor = row('cursor');
    writeFileSync(cursorFile(), '{ "mcpServers": ');
    const before = backups(cursorDir());
    await press(cursor.getByTestId('agent-connect'));
    const alert = cursor.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toBe(`${cursorFile()} is not JSON (line 1, column 17); it was left as it is: fix it or move it away, then try again.`);
    expect(readFileSync(cursorFile(), 'utf8')).toBe('{ "mcpServers": ');
    expect(backups(cursorDir())).toEqual(before);
    writeFileSync(cursorFile(), JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }));
  });

  it('offers the HTTP entry with the kept address and token once the app serves MCP, never for Claude Desktop', async () => {
    const { page } = ui;
    await go(page, '#/chat');
    await go(page, '#/settings'); // the rows read again
    const cursor = row('cursor');
    await press(page.getByTestId('agent-way-http'), 'Space');
    await expect.poll(() => cursor.getByTestId('agent-problem').textContent()).toContain('Turn on “Let other local agents use this memory (MCP)” above');
    expect(await cursor.getByTestId('agent-connect').isDisabled()).toBe(true);

    await press(page.getByTestId('mcp-enabled'), 'Space');
    await expect.poll(() => cursor.getByTestId('agent-entry').count()).toBe(1);
    const { url, token } = service.status();
    const http = { url, headers: { Authorization: `Bearer ${token}` } };
    expect(JSON.parse((await cursor.getByTestId('agent-entry').textContent()) ?? '')).toEqual({ tempora: http });
    expect(await row('claude-desktop').getByTestId('agent-problem').textContent()).toBe(
      'Claude Desktop’s config file starts local servers only: use the stdio entry (or the Tempora MCP Bundle).',
    );
    await press(cursor.getByTestId('agent-connect'));
    await expect.poll(() => cursor.getByTestId('agent-state').textContent()).toBe('connected (HTTP)');
    expect(json(cursorFile()).mcpServers.tempora).toEqual(http);
    expect(existsSync(janFile()) && readFileSync(janFile(), 'utf8')).toBe(BROKEN);
  });

  it('passes axe-core at 1280 and 900 px, light and dark', async () => {
    const { page } = ui;
    for (const width of [1280, 900]) {
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: theme });
        await page.locator('.agent-connect').scrollIntoViewIfNeeded();
        const results = await new AxeBuilder({ page }).setLegacyMode(true).include('.agent-connect').analyze();
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(serious, `${width} px, ${theme}`).toEqual([]);
        await screenshot(page, `settings-agents-${width}-${theme}`);
      }
    }
  });

  it('says Tempora is busy, not the bridge’s words, when a Connect is refused as busy; the file untouched', async () => {
    const { page } = ui;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    const calls = await routeRefusals(page); // reloads the page
    await go(page, '#/settings');
    const cursor = row('cursor');
    await press(page.getByTestId('agent-way-stdio'), 'Space');
    await expect.poll(() => cursor.getByTestId('agent-connect').isEnabled()).toBe(true);
    const file = readFileSync(cursorFile(), 'utf8');
    calls.refuse((call) => (call.name === 'connectAgent' ? BUSY : null));
    await press(cursor.getByTestId('agent-connect'));
    await expect.poll(() => calls.refused.length).toBe(1);
    await expect.poll(() => cursor.getByRole('alert').allTextContents()).toEqual([BUSY_SENTENCE]);
    expect(await page.getByText(BUSY.error, { exact: false }).count()).toBe(0);
    expect(await cursor.getByTestId('agent-said').count()).toBe(0);
    expect(readFileSync(cursorFile(), 'utf8')).toBe(file);
    calls.refuse(null);
  });
});

describe.skipIf(CHROMIUM_MISSING !== null)('Settings → Connect an agent in the browser (tempora serve: no MCP switch)', () => {
  let browserUi: UiSession;
  let browserHome: string;

  beforeAll(async () => {
    browserHome = mkdtempSync(join(tmpdir(), 'tempora-agents-browser-'));
    Object.assign(process.env, { HOME: browserHome, XDG_CONFIG_HOME: join(browserHome, '.config'), XDG_DATA_HOME: join(browserHome, '.local', 'share'), TEMPORA_TZ: 'UTC' });
    mkdirSync(join(browserHome, '.cursor'), { recursive: true });
    browserUi = await startUi({ engine: { startWorker: false } });
  });

  afterAll(async () => {
    await browserUi?.close();
    for (const name of KEPT) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(browserHome, { recursive: true, force: true });
  });

  it('offers no HTTP entry it cannot write, says why in one sentence, and points at no switch', async () => {
    const { page } = browserUi;
    await go(page, '#/settings');
    const cursor = page.getByTestId('agent-cursor');
    await expect.poll(() => cursor.getByTestId('agent-entry').count()).toBe(1);
    const http = page.getByTestId('agent-way-http');
    // Whether HTTP is here comes with the MCP status, its own answer.
    await expect.poll(() => http.isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('agent-way-stdio').isChecked()).toBe(true);
    const why = page.locator(`#${await http.getAttribute('aria-describedby')}`);
    expect(await why.textContent()).toMatch(/^Only in the desktop app: /);
    expect(await page.locator('.agent-way').textContent()).not.toContain('address and token above');
    expect(await cursor.getByTestId('agent-connect').isEnabled()).toBe(true);
    // The MCP card: where this page's server serves MCP, and no switch that is not here.
    const note = page.locator('.mcp-setting').getByTestId('mcp-note');
    await expect.poll(() => note.textContent()).toContain(`${new URL(page.url()).origin}/mcp`);
    expect(await page.locator('.mcp-setting').textContent()).not.toMatch(/switch/i);
    for (const width of [1280, 900]) {
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: theme });
        await page.locator('.agent-connect').scrollIntoViewIfNeeded();
        const results = await new AxeBuilder({ page }).setLegacyMode(true).include('.agent-connect').include('.mcp-setting').analyze();
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(serious, `${width} px, ${theme}`).toEqual([]);
        await screenshot(page, `settings-agents-browser-${width}-${theme}`);
      }
    }
  });
});

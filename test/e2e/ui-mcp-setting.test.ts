/**
 * Settings → Other agents (MCP) in Chromium, with the desktop app's McpService behind the bridge
 * (issue #30, item 2): turned on, it shows the URL and the header, and says they stay the same
 * across restarts; "New token…" asks first, then the header shows a new token that works at once
 * while the old one is refused at once; a start whose kept port was taken says so in words.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpService, MCP_TOKEN_FILE } from '../../electron/main/mcp-service';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let service: McpService;

async function statusWith(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.text();
  return response.status;
}

describe.skipIf(CHROMIUM_MISSING !== null)('the MCP setting in the app', () => {
  const ui = useUi({
    zone: 'UTC',
    engine: { startWorker: false },
    mcp: (engine) => {
      service = new McpService(engine);
      return service;
    },
    shotPrefix: 'mcp',
  });

  afterAll(async () => {
    await service?.close();
  });

  it('shows a URL and token that stay, and replaces the token on demand after asking', async () => {
    const { page } = ui();
    await go(page, '#/settings');
    const mcp = page.locator('.mcp-setting');
    await mcp.getByTestId('mcp-enabled').click(); // checked once main answers (a controlled box)
    await expect.poll(() => mcp.getByTestId('mcp-enabled').isChecked()).toBe(true);
    await expect.poll(() => mcp.getByTestId('mcp-url').inputValue()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const url = await mcp.getByTestId('mcp-url').inputValue();
    const header = await mcp.getByTestId('mcp-header').inputValue();
    const token = header.replace(/^Authorization: Bearer /, '');
    expect(token).toBe(readFileSync(join(ui().dir, 'data', MCP_TOKEN_FILE), 'utf8').trim());
    expect(await mcp.textContent()).toContain('The address and token stay the same when the app restarts.');
    expect(await statusWith(url, token)).toBe(200);

    await mcp.getByTestId('mcp-rotate').click();
    expect(await mcp.textContent()).toContain('Agents that use the current token stop working at once');
    expect(await mcp.getByTestId('mcp-header').inputValue()).toBe(header); // asked, not yet done
    await mcp.getByTestId('mcp-rotate-confirm').click();
    await expect.poll(() => mcp.getByTestId('mcp-header').inputValue()).not.toBe(header);
    const rotated = (await mcp.getByTestId('mcp-header').inputValue()).replace(/^Authorization: Bearer /, '');
    expect(await statusWith(url, token)).toBe(401);
    expect(await statusWith(url, rotated)).toBe(200);
    expect(await mcp.getByTestId('mcp-url').inputValue()).toBe(url);
    expect(await mcp.locator('.error-text, [role="alert"]').count()).toBe(0);
    await screenshot(page, 'settings-mcp-rotated');
  });

  it('says in words when the kept port was taken at this start, and shows the new URL', async () => {
    const { page } = ui();
    const before = service.status();
    const port = Number(new URL(before.url!).port);
    await service.close();
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const moved = await service.start();
      await page.reload();
      await go(page, '#/settings');
      const mcp = page.locator('.mcp-setting');
      await expect.poll(() => mcp.getByTestId('mcp-notice').textContent()).toBe(
        `Port ${port} is taken by another program, so MCP is now at ${moved.url}; agents set up with the old address need this one.`,
      );
      expect(await mcp.getByTestId('mcp-url').inputValue()).toBe(moved.url);
      await screenshot(page, 'settings-mcp-port-taken');
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

/**
 * The file fields of the Export / Import screen say which file the screen is about: once a memory
 * file or a chat export is picked, the field shows its name beside its button, as the preview
 * below it does — never "No file chosen" over a preview of that very file (the browser's own
 * control says so once its value is cleared, which lets the same file be picked again). Cancel and
 * a finished import leave the field empty again, said in words. The input stays what a keyboard
 * and a screen reader reach: labelled, and described by the name shown. In Chromium over the bridge.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sampleChatGptExport, writeZip } from '../fixtures/chat-exports';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

/** What the field shows beside its label, as a user reads it, and what its input is described by. */
async function fieldSays(field: Locator): Promise<{ shown: string; described: string | null }> {
  const shown = (await field.locator('.file-picker').innerText()).replace(/\s+/g, ' ').trim();
  const described = await field.locator('input[type="file"]').evaluate((input) => {
    const ids = input.getAttribute('aria-describedby');
    return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : null;
  });
  return { shown, described };
}

describe.skipIf(CHROMIUM_MISSING !== null)('the file fields on Export / Import', () => {
  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false } });

  it('show the memory file picked while its preview is up, and nothing once cancelled', async () => {
    const { page, engine } = ui();
    const file = join(ui().dir, 'my-memory.json');
    writeFileSync(file, JSON.stringify(engine.memory.transfer.export()));
    await go(page, '#/data');
    const panel = page.getByRole('region', { name: 'Import', exact: true });
    const field = panel.locator('.file-field');
    await page.getByLabel('Memory file (.json)').waitFor({ state: 'attached' });
    expect(await fieldSays(field)).toEqual({ shown: 'Choose file… No file chosen', described: 'No file chosen' });

    await page.getByLabel('Memory file (.json)').setInputFiles(file);
    await panel.getByLabel('Import preview').waitFor();
    expect(await panel.getByLabel('Import preview').textContent()).toContain('my-memory.json holds:');
    expect(await fieldSays(field)).toEqual({ shown: 'Choose file… my-memory.json', described: 'my-memory.json' });
    await screenshot(page, 'file-fields-picked');

    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => fieldSays(field)).toEqual({ shown: 'Choose file… No file chosen', described: 'No file chosen' });
  });

  it('are reached from the keyboard, show their focus, and have no serious axe-core finding, light and dark', async () => {
    const { page } = ui();
    await go(page, '#/data');
    const input = page.getByLabel('Memory file (.json)');
    await page.getByRole('button', { name: 'Save export…' }).focus();
    await page.keyboard.press('Tab');
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.locator('.file-field .file-button').first().evaluate((button) => getComputedStyle(button).outlineStyle)).toBe('solid');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const results = await new AxeBuilder({ page }).include('.data-grid').setLegacyMode(true).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious).toEqual([]);
      await screenshot(page, `file-fields-focus-${theme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('show the chat export picked while its preview is up, and nothing once it is imported', async () => {
    const { page } = ui();
    const zip = join(ui().dir, 'chatgpt-export.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleChatGptExport()) });
    await go(page, '#/data');
    const panel = page.getByRole('region', { name: 'Your history from ChatGPT or Claude' });
    const field = panel.locator('.file-field');
    await page.getByLabel('Export file (.zip or conversations.json)').setInputFiles(zip);
    await panel.getByLabel('Chat import preview').waitFor();
    expect(await fieldSays(field)).toEqual({ shown: 'Choose file… chatgpt-export.zip', described: 'chatgpt-export.zip' });

    await panel.getByRole('button', { name: 'Import 5 messages' }).click();
    await expect.poll(() => panel.locator('.note[role="status"]').textContent()).toContain('Imported 5 new messages');
    expect(await fieldSays(field)).toEqual({ shown: 'Choose file… No file chosen', described: 'No file chosen' });
  });
});

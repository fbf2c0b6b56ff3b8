/**
 * The keyboard's focus after an action on the chat, Models, Settings and Export / Import screens, in
 * Chromium over the bridge, a Tokyo user: a screen chosen in the navigation takes it (not the next
 * link, eight Tabs from the screen); it never drops to the page (<body>) when the button pressed
 * goes away or waits. Undo gives the focus to Redo and back; a rename saved or cancelled returns it to
 * Rename (an input method's Enter does not save); a deleted conversation hands it to the next; Send, Unload, "Use this zone", "Use system
 * zone", "Save export…" and the imports keep it on the screen. Also what a conversation's composer
 * holds: its own draft, kept over a reload, and the words of an empty conversation's delete, of a
 * folder typed as a model file and of an import's clashes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { scriptedModel } from '../fixtures/scripted-model';
import { sampleChatGptExport, writeZip } from '../fixtures/chat-exports';
import { writeTinyGguf } from '../fixtures/tiny-gguf';
import { CHROMIUM_MISSING } from './helpers/browser';
import { learnAll } from './helpers/learn-all';
import { go, useUi } from './helpers/ui-session';

const model = scriptedModel({
  extract: {
    '東京に住んでいます。': [{ subject: 'me', subject_type: 'user', predicate: 'lives_in', object: '東京', object_type: 'place', fact: '私は東京に住んでいます。', cardinality: 'one' }],
  },
});

/** What has the keyboard's focus: '<body>' when nothing does. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '<body>';
    return (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });

describe.skipIf(CHROMIUM_MISSING !== null)('the focus after an action', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', locale: 'ja-JP', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, shotPrefix: 'focus-kept' });
  let tokyo: string;
  let work: string;

  beforeAll(async () => {
    const memory = ui().engine.memory;
    tokyo = memory.conversations.create('引っ越しの話').id;
    memory.messages.append({ role: 'user', content: '東京に住んでいます。', time: '2026-12-06T09:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: tokyo });
    work = memory.conversations.create('Work notes').id;
    memory.messages.append({ role: 'user', content: 'Nothing to learn here.', time: '2026-12-06T10:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: work });
    await learnAll(ui(), model);
  });

  it('a screen chosen in the navigation by keyboard takes the focus: the next Tab is in it', async () => {
    const { page } = ui();
    await go(page, '#/models');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Timeline/ });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.locator('nav a[aria-current="page"]', { hasText: 'Timeline' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('#main') !== null)).toBe(true);
  });

  it('Undo hands the focus to Redo, and Redo back to Undo', async () => {
    const { page } = ui();
    await go(page, `#/chat/${tokyo}`);
    const message = page.locator('.message.user', { hasText: '東京に住んでいます。' });
    await message.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');
    await message.getByRole('button', { name: 'Redo' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Redo');
    await page.keyboard.press('Enter');
    await message.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Undo');
  });

  it('a rename saved with Enter or cancelled with Escape gives the focus back to Rename', async () => {
    const { page, engine } = ui();
    await page.getByRole('button', { name: 'Rename Work notes' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('仕事');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('Rename Work notes');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('仕事メモ');
    // Enter that ends an input method's composition (choosing the kanji) does not save yet.
    await page.getByLabel('Conversation title').dispatchEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true });
    await page.waitForTimeout(200);
    expect(await page.getByLabel('Conversation title').count()).toBe(1);
    expect(engine.memory.conversations.list().some((c) => c.title === '仕事メモ')).toBe(false);
    await page.keyboard.press('Enter');
    await expect.poll(() => engine.memory.conversations.list().some((c) => c.title === '仕事メモ')).toBe(true);
    await expect.poll(() => focused(page)).toBe('Rename 仕事メモ');
  });

  it('a deleted conversation hands the focus to the next one; an empty one is deleted without the forget question', async () => {
    const { page, engine } = ui();
    await page.getByRole('button', { name: 'Delete 仕事メモ' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete, keep what was learned' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => engine.memory.conversations.list().some((c) => c.title === '仕事メモ')).toBe(false);
    await expect.poll(() => focused(page)).not.toBe('<body>');
    await expect.poll(() => page.locator('aside.conversations a:focus').count()).toBe(1);

    const empty = engine.memory.conversations.create('空の会話').id;
    await go(page, `#/chat/${empty}`);
    await page.getByRole('button', { name: 'Delete 空の会話' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('button').allTextContents()).toEqual(['Delete', 'Cancel']);
    expect(await dialog.textContent()).not.toContain('learned');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('aside.conversations [role="status"]').textContent()).toBe('Deleted “空の会話”.');
  });

  it('Unload keeps the focus on the Models screen; the composer keeps each conversation’s draft, also over a reload; Send leaves the focus in it', async () => {
    const { page } = ui();
    const path = join(ui().dir, 'tiny.gguf');
    await writeTinyGguf(path);
    await go(page, '#/models');
    // A folder typed for the file: said as a folder, not as nothing there.
    await page.getByLabel('Model file path').fill(ui().dir);
    await page.getByLabel('Model file path').press('Enter');
    await expect.poll(() => page.locator('.local-model [role="alert"]').textContent()).toContain(`${ui().dir} is a folder, not a model file`);
    await page.getByLabel('Model file path').fill(path);
    await page.getByLabel('Model file path').press('Enter');
    const unload = page.locator('.loaded-row[data-role="chat"]').getByRole('button', { name: 'Unload' });
    await unload.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.loaded-row[data-role="chat"]').textContent()).toContain('No chat model');
    await expect.poll(() => focused(page)).not.toBe('<body>');
    await page.getByLabel('Model file path').press('Enter');
    await expect.poll(() => page.locator('.loaded-row[data-role="chat"]').textContent(), { timeout: 60_000 }).toContain('tempora-tiny');

    await go(page, `#/chat/${tokyo}`);
    const box = page.getByLabel('Message', { exact: true });
    await expect.poll(() => box.isDisabled()).toBe(false);
    await box.fill('東京の話の下書き');
    const other = ui().engine.memory.conversations.create('別の話').id;
    await go(page, `#/chat/${other}`);
    await expect.poll(() => page.locator('.chat-header h1').textContent()).toBe('別の話');
    expect(await box.inputValue()).toBe('');
    await go(page, `#/chat/${tokyo}`);
    await expect.poll(() => box.inputValue()).toBe('東京の話の下書き');
    await page.reload();
    await page.locator('nav[aria-label="Main"]').waitFor();
    await expect.poll(() => box.inputValue()).toBe('東京の話の下書き');

    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('streaming-answer').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('streaming-answer').count(), { timeout: 60_000 }).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('composer-text');
    await page.reload();
    await page.locator('nav[aria-label="Main"]').waitFor();
    await expect.poll(() => box.isDisabled()).toBe(false);
    expect(await box.inputValue()).toBe('');
  });

  it('"Use this zone" and "Use system zone" leave the focus in the zone field', async () => {
    const { page } = ui();
    await go(page, '#/settings');
    const zone = page.getByLabel('Zone', { exact: true });
    await zone.fill('America/Los_Angeles');
    await page.getByRole('button', { name: 'Use this zone' }).click();
    await expect.poll(() => page.getByTestId('time-zone-current').textContent()).toContain('America/Los_Angeles');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id.endsWith('-zone'))).toBe(true);
    await page.getByRole('button', { name: 'Use system zone' }).click();
    await expect.poll(() => page.getByTestId('time-zone-current').textContent()).toContain('Asia/Tokyo');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id.endsWith('-zone'))).toBe(true);
  });

  it('"Save export…" keeps the focus; an import hands it to what it says', async () => {
    const { page, engine } = ui();
    await go(page, '#/data');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save export…' }).focus();
    await page.keyboard.press('Enter');
    await download;
    await expect.poll(() => page.locator('[role="status"]', { hasText: 'Exported' }).count()).toBe(1);
    expect(await focused(page)).toBe('Save export…');

    const zip = join(ui().dir, 'chatgpt-export.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleChatGptExport()) });
    await page.getByLabel('Export file (.zip or conversations.json)').setInputFiles(zip);
    await page.getByRole('button', { name: 'Import 5 messages' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^Imported 5 new messages/);

    // One record of the file is here already: said in the singular.
    const doc = engine.memory.transfer.export();
    const emptied = Object.fromEntries(Object.entries(doc).map(([key, value]) => [key, Array.isArray(value) ? [] : value]));
    const one = { ...emptied, conversations: [doc.conversations.find((c) => c.id === tokyo)!] };
    const file = join(ui().dir, 'one.json');
    writeFileSync(file, JSON.stringify(one));
    await page.getByLabel('Memory file (.json)').setInputFiles(file);
    const preview = page.getByLabel('Import preview');
    await expect.poll(() => preview.locator('.warning').textContent()).toBe('Its one record already exists here (same id): importing adds nothing new. Import refuses it unless you replace it.');
    await preview.getByRole('checkbox').check();
    await preview.getByRole('button', { name: 'Import' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^Imported 0 facts.*; replaced 1 existing record\.$/);
  });
});

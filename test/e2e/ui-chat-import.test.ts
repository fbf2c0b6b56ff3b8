/**
 * The ChatGPT / Claude import on the Export / Import screen, in Chromium through the bridge (real
 * engine): upload a ChatGPT export, see the preview (conversations, messages, dates, what is
 * skipped and why), import it, then pause, resume and cancel its learning; a second upload of the
 * same file has nothing new.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';
import { gptConversation, sampleChatGptExport, writeZip } from '../fixtures/chat-exports';

describe.skipIf(CHROMIUM_MISSING !== null)('importing a chat history in the UI', () => {
  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false } });

  it('previews, imports, and pauses, resumes, cancels and requeues the learning', async () => {
    const { page, engine } = ui();
    const zip = join(ui().dir, 'chatgpt-export.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify(sampleChatGptExport()), 'chat.html': '<html></html>' });
    await go(page, '#/data');
    const fileInput = page.getByLabel('Export file (.zip or conversations.json)');
    await fileInput.setInputFiles(zip);

    const preview = page.getByLabel('Chat import preview');
    await preview.waitFor();
    const text = await preview.textContent();
    expect(text).toContain('ChatGPT export');
    expect(text).toContain('1 conversation');
    expect(text).toContain('5 messages');
    expect(text).toContain('from May 29, 2024, 16:26 to Jun 28, 2024, 16:26');
    expect(text).toContain('3 messages of yours to learn');
    expect(text).toContain('what your custom instructions say about you: 1 distinct text, each once');
    const skipped = await page.getByLabel('Skipped').locator('li').allTextContents();
    expect(skipped).toEqual(
      expect.arrayContaining(['1 conversation you marked do-not-remember', '1 message on a regenerated or edited branch, not the conversation as it was left', '1 tool or plugin message']),
    );
    expect(await page.getByLabel('Not imported').count()).toBe(0);
    expect(engine.memory.conversations.list()).toEqual([]);

    await page.getByRole('button', { name: 'Import 5 messages' }).click();
    // Nothing of it was here before: no "(0 already here)".
    await expect.poll(() => page.locator('.note[role="status"]').textContent()).toBe('Imported 5 new messages in 1 conversation; 3 of your messages will be learned in their own order.');
    expect(engine.memory.conversations.list().map((c) => c.title).sort()).toEqual(['Moving to Berlin', 'Your ChatGPT custom instructions']);

    const queue = page.getByLabel('Imported chats learning');
    await expect.poll(() => queue.getByRole('status').textContent()).toContain('0 of 3 messages learned, 3 left');
    await screenshot(page, 'chat-import');
    await queue.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => queue.getByRole('status').textContent()).toContain('paused');
    expect(engine.memory.history.backfillStatus().paused).toBe(true);
    await queue.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => queue.getByRole('status').textContent()).not.toContain('paused');
    expect(engine.memory.history.backfillStatus().paused).toBe(false);
    await queue.getByRole('button', { name: 'Cancel…' }).click();
    await queue.getByRole('button', { name: 'Stop learning 3 messages' }).click();
    await expect.poll(() => queue.textContent()).toContain('3 imported messages not learned: you cancelled them.');
    expect(engine.memory.history.backfillStatus()).toMatchObject({ total: 0, pending: 0, cancelled: 3 });
    // A cancel can be taken back.
    await queue.getByRole('button', { name: 'Learn them after all' }).click();
    await expect.poll(() => queue.getByRole('status').textContent()).toContain('0 of 3 messages learned, 3 left');
    expect(engine.memory.history.backfillStatus()).toMatchObject({ total: 3, pending: 3, cancelled: 0 });

    // The same export again: nothing new.
    await fileInput.setInputFiles(zip);
    await expect.poll(() => preview.textContent()).toContain('5 already imported');
    expect(await page.getByRole('button', { name: 'Nothing new to import' }).isDisabled()).toBe(true);

    // The Chat list dates the imported conversation by its last message, not by today's import.
    await go(page, '#/chat');
    const imported = page.locator('li.conversation', { hasText: 'Moving to Berlin' });
    await expect.poll(() => imported.locator('.conversation-meta').textContent()).toMatch(/^Jun 28, 2024, 16:26 · 4 messages/);
  });

  it('lists the conversations it cannot read, in words, and imports the rest; a file that is no export is refused', async () => {
    const { page, engine } = ui();
    const broken = sampleChatGptExport();
    const mapping = (broken[0] as { mapping: Record<string, { message: { author: { role: string } } | null }> }).mapping;
    mapping['g-u1']!.message!.author.role = 'narrator';
    const fine = gptConversation({ id: 'ok', title: 'Fine', thread: [{ id: 'f1', role: 'user', text: 'I like tea.' }] });
    const zip = join(ui().dir, 'broken.zip');
    writeZip(zip, { 'conversations.json': JSON.stringify([...broken, fine]) });
    await go(page, '#/data');
    const fileInput = page.getByLabel('Export file (.zip or conversations.json)');
    await fileInput.setInputFiles(zip);
    const preview = page.getByLabel('Chat import preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('Not imported: 1 conversation could not be read (nothing of it will be stored):');
    expect(await page.getByLabel('Not imported').locator('li').allTextContents()).toEqual(['conversation 1 ("Moving to Berlin", id gpt-c1): message g-u1: author.role "narrator" is not one of user, assistant, system, tool']);
    await page.getByRole('button', { name: 'Import 1 message' }).click();
    await expect.poll(() => page.locator('.note[role="status"]').textContent()).toContain('Imported 1 new message in 1 conversation');
    expect(await page.locator('.note[role="status"]').textContent()).toContain('1 conversation could not be read and was not imported.');
    expect(engine.memory.conversations.list().map((c) => c.title)).toContain('Fine');

    // That conversation again with a new one: the message already here is counted, once.
    const more = gptConversation({ id: 'more', title: 'More', thread: [{ id: 'm1', role: 'user', text: 'I like coffee too.' }] });
    const again = join(ui().dir, 'again.zip');
    writeZip(again, { 'conversations.json': JSON.stringify([fine, more]) });
    await fileInput.setInputFiles(again);
    await page.getByRole('button', { name: 'Import 1 message' }).click();
    await expect.poll(() => page.locator('.note[role="status"]').textContent()).toMatch(/^Imported 1 new message in \d conversations? \(1 already here\); /);

    const notes = join(ui().dir, 'notes.csv');
    writeFileSync(notes, 'date,text\n2024-01-01,hello\n');
    await fileInput.setInputFiles(notes);
    await expect.poll(() => page.locator('[aria-labelledby="chat-import-title"] [role="alert"]').first().textContent()).toContain('not JSON, nor a zip');
  });
});

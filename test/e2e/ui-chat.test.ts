/**
 * Chat in Chromium against the bridge with the tiny fixture model: without a model the chat says
 * how to get one; the model is loaded by typing its path on the Models screen; an answer streams
 * token by token, Stop stops it, Regenerate answers again, the facts an answer used link to their
 * pages; conversations are renamed (in Japanese) and deleted with the forget question.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../fixtures/tiny-gguf';
import { screenshot } from './helpers/screenshots';
import { seedMemory } from './helpers/seed-memory';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

let modelPath: string;

describe.skipIf(CHROMIUM_MISSING !== null)('chat through the bridge', () => {
  const ui = useUi({ engine: { ingestionTimeoutMs: 5_000 }, seed: seedMemory, shotPrefix: 'chat' });

  beforeAll(async () => {
    modelPath = join(ui().dir, 'tiny-chat.gguf');
    await writeTinyGguf(modelPath);
  });

  const answers = () => ui().page.locator('.message.assistant:not(.streaming)');

  it('explains how to get a chat model and links to Models', async () => {
    const { page } = ui();
    await go(page, '#/chat');
    const notice = page.locator('.notice');
    await expect.poll(() => notice.textContent()).toContain('No chat model is loaded');
    expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);
    await notice.getByRole('link', { name: 'Models' }).click();
    await expect.poll(() => page.locator('.models-screen h1').textContent()).toBe('Models');
  });

  it('loads the tiny model for chat by typing its path (the browser has no file dialog)', async () => {
    const { page } = ui();
    expect(await page.locator('.local-model').textContent()).toContain('type the model file’s full path');
    await page.getByLabel('Model file path').fill(join(ui().dir, 'no-such-model.gguf'));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => page.locator('.local-model [role="alert"]').textContent(), { timeout: 30_000 }).toContain('no model file at');
    await page.getByLabel('Model file path').fill(modelPath);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => page.locator('.loaded-row[data-role="chat"]').textContent(), { timeout: 60_000 }).toContain('tempora-tiny');
  });

  it('streams an answer, stops it, and lists the facts the answer used', async () => {
    const { page } = ui();
    await page.keyboard.press('Alt+1');
    await expect.poll(() => page.locator('.notice').count()).toBe(0);
    await page.getByRole('button', { name: '+ New conversation' }).click();
    await expect.poll(() => page.locator('.chat-header h1').textContent()).toBe('New conversation');
    await page.getByLabel('Message', { exact: true }).fill('Who is my manager now? 今のマネージャーは誰？');
    await page.getByLabel('Message', { exact: true }).press('Enter');

    const live = page.getByTestId('streaming-answer');
    const liveText = async () => ((await live.count()) > 0 ? ((await live.locator('.message-text').textContent()) ?? '') : '');
    await expect.poll(async () => (await liveText()).length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(5);
    const early = (await liveText()).length;
    await expect.poll(async () => (await liveText()).length, { interval: 20 }).toBeGreaterThan(early);
    // The quiet learning note: the message waits to be learned while the answer streams.
    await expect.poll(() => page.locator('.learning').textContent()).toMatch(/Learning from 1 message/);
    await page.getByRole('button', { name: '■ Stop' }).click();
    await expect.poll(() => live.count(), { timeout: 15_000 }).toBe(0);

    const answer = answers().last();
    expect(await answer.locator('.badge').textContent()).toBe('stopped');
    const stoppedText = (await answer.locator('.message-text').textContent()) ?? '';
    expect(stoppedText.length).toBeGreaterThan(0);
    expect(stoppedText.length).toBeLessThan(4000);
    const used = answer.locator('.used-facts');
    // What the message taught is told under the answer, in view now that the answer is done.
    await expect.poll(() => answer.locator('.learned-echo').evaluate((el) => {
      const box = el.getBoundingClientRect();
      const list = el.closest('.messages')!.getBoundingClientRect();
      return box.top >= list.top && box.bottom <= list.bottom;
    })).toBe(true);
    // One quiet line that opens on demand into the facts.
    const toggle = used.getByRole('button', { name: /^Used \d+ facts?$/ });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await used.locator('.fact-chip').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => used.locator('.fact-chip').first().textContent()).toMatch(/ · /);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
    await screenshot(page, 'chat-tiny-model');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'chat-dark-tiny-model');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('regenerates the last answer', async () => {
    const { page } = ui();
    const before = (await answers().last().locator('.message-text').textContent()) ?? '';
    await page.getByRole('button', { name: /Regenerate/ }).click();
    await expect.poll(() => page.getByTestId('streaming-answer').count(), { interval: 20 }).toBe(1);
    await expect.poll(() => page.getByTestId('streaming-answer').count(), { timeout: 40_000 }).toBe(0);
    await expect.poll(() => answers().count()).toBe(1);
    const after = (await answers().last().locator('.message-text').textContent()) ?? '';
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toBe(before);
    expect(await answers().last().locator('.badge').count()).toBe(0);
  });

  it('opens a fact the answer used', async () => {
    const { page } = ui();
    await answers().last().getByRole('button', { name: /^Used \d+ facts?$/ }).click();
    const chip = answers().last().locator('a.fact-chip').first();
    const label = (await chip.textContent()) ?? '';
    await chip.click();
    await expect.poll(() => page.locator('.fact-page .triple-line').textContent()).toBe(label.replace(/ \((?:until|ended) .*\)$/, ''));
    await page.goBack();
    await expect.poll(() => answers().count()).toBe(1);
  });

  it('renames a conversation in Japanese and deletes one, asking whether to forget what was learned', async () => {
    const { page } = ui();
    // The first message named the untitled conversation; the user's rename wins over that.
    expect(await page.locator('.conversation.selected .conversation-title').textContent()).toBe('Who is my manager now? 今のマネージャーは誰？');
    await page.getByRole('button', { name: 'Rename Who is my manager now? 今のマネージャーは誰？' }).click();
    await page.getByLabel('Conversation title').fill('マネージャーについて');
    await page.getByLabel('Conversation title').press('Enter');
    await expect.poll(() => page.locator('.conversation.selected .conversation-title').textContent()).toBe('マネージャーについて');
    await expect.poll(() => page.locator('.chat-header h1').textContent()).toBe('マネージャーについて');

    await page.getByRole('button', { name: 'Delete Seed notes' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete, keep what was learned' }).click();
    await expect.poll(() => page.locator('.conversation').count()).toBe(1);
    expect(ui().engine.memory.facts.list({}).length).toBeGreaterThan(0);
    expect(ui().browser.problems).toEqual([]);
  });
});


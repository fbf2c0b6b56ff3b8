/**
 * Trust in the chat, in Chromium over the bridge, with the scripted model learning: a message shows
 * a quiet marker while it waits, then what it taught — remembered, closed with its interval — and
 * Undo makes the old fact current again; "Don't learn from this conversation" with its forget
 * question; the parked messages listed with Retry; titles from the first message; "open
 * conversation" on a fact lands at its message; a long title leaves every item's actions in reach.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../fixtures/scripted-model';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { learnAll } from './helpers/learn-all';
import { go, useUi } from './helpers/ui-session';

const lives = (city: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const }];
const model = scriptedModel({ extract: { 'I live in Tokyo.': lives('Tokyo'), 'I moved to Osaka.': lives('Osaka') }, failOn: 'broken' });

let conversationId: string;

describe.skipIf(CHROMIUM_MISSING !== null)('learned, inline, and the chat’s rough edges', () => {
  const ui = useUi({ zone: 'UTC', engine: { startWorker: false }, shotPrefix: 'learned' });

  beforeAll(async () => {
    const memory = ui().engine.memory;
    conversationId = memory.conversations.create().id;
    memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-09-01T09:00:00Z', conversation: conversationId });
    await learnAll(ui(), model);
    memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-15T09:00:00Z', conversation: conversationId });
  });

  const message = (text: string) => ui().page.locator('.message.user', { hasText: text });

  it('titles the conversation from its first message, marks a waiting message, then shows what it taught', async () => {
    const { page } = ui();
    await go(page, `#/chat/${conversationId}`);
    await expect.poll(() => page.locator('.chat-header h1').textContent()).toBe('I live in Tokyo.');
    expect(await page.locator('.conversation.selected .conversation-title').textContent()).toBe('I live in Tokyo.');
    await expect.poll(() => message('I moved to Osaka.').locator('.learn-marker').textContent()).toBe('waiting to be learned');

    await learnAll(ui(), model);
    const learned = message('I moved to Osaka.').locator('.learned');
    await expect.poll(() => learned.locator('.learned-learned').textContent()).toBe('Learned:me · lives in · Osaka');
    const closed = learned.locator('.learned-closed .fact-chip');
    expect(await closed.textContent()).toBe('me · lives in · Tokyo (Sep 1 – Sep 15, 2026)');
    const tokyoVersion = ui().engine.memory.facts.list({ history: true }).find((f) => f.object === 'Tokyo' && f.invalid_at !== null)!;
    expect(await closed.getAttribute('href')).toBe(`#/facts/${tokyoVersion.id}`);
    await screenshot(page, 'chat-learned-inline');
  });

  it('Undo forgets what the message added and makes the old fact current again', async () => {
    const { page } = ui();
    await message('I moved to Osaka.').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => message('I moved to Osaka.').locator('.undone .learn-marker').first().textContent()).toBe('Undone · Redo');
    expect(await message('I moved to Osaka.').locator('.undo-report').textContent()).toBe('forgot 1 fact; reopened I live in Tokyo.');
    expect(ui().engine.memory.facts.list().map((f) => [f.object, f.invalid_at])).toEqual([['Tokyo', null]]);
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.fact-row .object').allTextContents()).toEqual(['Tokyo']);
  });

  it('"open conversation" on a fact lands at its message, highlighted and in view', async () => {
    const { page } = ui();
    const memory = ui().engine.memory;
    // Enough messages that the first one is out of view when the list follows its end.
    for (let i = 0; i < 30; i++) memory.messages.appendAll([{ role: 'assistant', content: `filler ${i}\n\nmore\n\nlines`, time: `2026-09-20T09:${String(i).padStart(2, '0')}:00Z`, conversation: conversationId, learn: false }]);
    const tokyo = memory.facts.list()[0]!;
    const source = tokyo.episode_ids[0]!;
    await go(page, `#/facts/${tokyo.id}`);
    await page.getByRole('link', { name: 'open conversation' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/chat/${conversationId}/${source}`);
    const target = page.locator(`#message-${source}`);
    await expect.poll(() => target.getAttribute('class')).toContain('highlight');
    await expect.poll(() => target.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const list = el.closest('.messages')!.getBoundingClientRect();
      return box.top >= list.top && box.bottom <= list.bottom;
    })).toBe(true);
  });

  it('"Don’t learn from this conversation" asks to forget what was learned, then learns nothing more', async () => {
    const { page } = ui();
    await go(page, `#/chat/${conversationId}`);
    // A controlled switch: it turns on once the question is answered.
    await page.getByLabel('Don’t learn from this conversation').click();
    const dialog = page.locator('dialog[open]');
    await expect.poll(() => dialog.locator('h2').textContent()).toBe('Stop learning from this conversation?');
    await dialog.getByRole('button', { name: 'Stop, and forget what was learned' }).click();
    await expect.poll(() => page.locator('.learn-switch [role="status"]').textContent()).toBe('Forgot what 1 message taught (1 fact).');
    await expect.poll(() => page.locator('.conversation.selected .not-remembered').count()).toBe(1);
    expect(await page.getByLabel('Don’t learn from this conversation').isChecked()).toBe(true);
    expect(ui().engine.memory.facts.list()).toEqual([]);
    const later = ui().engine.memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-10-01T09:00:00Z', conversation: conversationId }).episode;
    expect(ui().engine.memory.jobs.byEpisode(later.id)).toBeUndefined();
    await page.reload();
    await expect.poll(() => page.locator(`#message-${later.id} .learn-marker`).textContent()).toBe('not learned: this conversation is not remembered');
    // Undone, and not to be redone while the conversation is not remembered.
    expect(await message('I live in Tokyo.').first().locator('.undone .learn-marker').first().textContent()).toBe('Undone');
    expect(await message('I live in Tokyo.').first().locator('.undo-report').textContent()).toMatch(/^forgot 1 fact/);
  });

  it('leads from "could not be learned" to the parked messages, each with its error and Retry', async () => {
    const { page } = ui();
    const memory = ui().engine.memory;
    const other = memory.conversations.create('Parked chat');
    const broken = memory.messages.append({ role: 'user', content: 'this one is broken', time: '2026-10-02T09:00:00Z', conversation: other.id }).episode;
    await learnAll(ui(), model);
    await go(page, `#/chat/${other.id}`);
    await expect.poll(() => message('this one is broken').locator('.learn-marker').textContent()).toMatch(/^could not be learned: scripted failure for "this one is broken"/);
    await page.getByRole('link', { name: '1 message could not be learned' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/settings/parked');
    expect(await page.locator('.settings-screen h1').textContent()).toBe('Settings');
    const item = page.locator('.parked-message');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.locator('blockquote').textContent()).toBe('this one is broken');
    expect(await item.getByRole('link', { name: 'Parked chat' }).getAttribute('href')).toBe(`#/chat/${other.id}/${broken.id}`);
    expect(await item.locator('.parked-error').textContent()).toBe('Failed 3 times: scripted failure for "this one is broken"');
    await screenshot(page, 'settings-parked');
    await item.getByRole('button', { name: /^Retry/ }).click();
    await expect.poll(() => item.count()).toBe(0);
    expect(memory.jobs.byEpisode(broken.id)!.status).toBe('pending');
  });

  it('ellipsises one long title and keeps every item’s Rename and Delete in reach', async () => {
    const { page } = ui();
    const memory = ui().engine.memory;
    const long = memory.conversations.create(`${'A very long conversation title that goes on '.repeat(6)}and on`);
    memory.conversations.create('東京の引っ越し先について、とても長い日本語のタイトルを付けた会話がここにあります。まだまだ続きます。');
    // A link to a conversation made elsewhere: the list is asked again rather than falling back.
    await go(page, `#/chat/${long.id}`);
    await expect.poll(() => page.locator('.conversation.selected .conversation-title').textContent()).toMatch(/^A very long conversation title/);
    expect(await page.locator('.conversation').count()).toBeGreaterThanOrEqual(3);
    const boxes = await page.locator('.conversations').evaluate((aside) => {
      const outer = aside.getBoundingClientRect();
      return [...aside.querySelectorAll('.conversation')].map((li) => {
        const title = li.querySelector('.conversation-title')!;
        const buttons = [...li.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
        return {
          inside: buttons.length === 2 && buttons.every((b) => b.width > 0 && b.left >= outer.left && b.right <= outer.right + 0.5),
          clipped: title.scrollWidth > title.clientWidth,
          text: title.textContent,
        };
      });
    });
    expect(boxes.every((b) => b.inside)).toBe(true);
    expect(boxes.filter((b) => b.clipped).map((b) => b.text?.slice(0, 10))).toEqual(expect.arrayContaining(['A very lon', '東京の引っ越し先につ']));
    // The long one's actions can be used: Rename opens its editor.
    await page.getByRole('button', { name: `Rename ${memory.episodes.conversation(long.id)!.title}` }).click();
    expect(await page.getByLabel('Conversation title').isVisible()).toBe(true);
    await screenshot(page, 'chat-long-titles');
    await page.keyboard.press('Escape');
  });
});

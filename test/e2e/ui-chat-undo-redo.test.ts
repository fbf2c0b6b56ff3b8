/**
 * The chat's answer area in Chromium over the bridge, the scripted model learning (issue #25): what
 * the latest message taught is told under its answer, in view when it arrives after a long answer;
 * the facts an answer used are one quiet "Used 2 facts" line that opens on demand; Undo shows
 * "Undone · Redo", and Redo learns the same again without a model call, also after a reload.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { scriptedModel } from '../fixtures/scripted-model';
import { CHROMIUM_MISSING } from './helpers/browser';
import { learnAll } from './helpers/learn-all';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const lives = (city: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const }];
const model = scriptedModel({
  extract: {
    'I live in Tokyo.': lives('Tokyo'),
    'I moved to Osaka.': lives('Osaka'),
    'I like green tea.': [{ subject: 'me', subject_type: 'user', predicate: 'likes', object: 'green tea', object_type: 'thing', fact: 'I like green tea.' }],
  },
});

let conversationId: string;

/** Whether the element lies wholly inside the message list's visible box. */
const inView = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const list = el.closest('.messages')!.getBoundingClientRect();
    return box.height > 0 && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
  });

describe.skipIf(CHROMIUM_MISSING !== null)('the answer area: what a message taught, its sources, Undo and Redo', () => {
  const ui = useUi({ zone: 'UTC', engine: { startWorker: false }, shotPrefix: 'undo-redo' });

  beforeAll(async () => {
    const memory = ui().engine.memory;
    conversationId = memory.conversations.create().id;
    memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-09-01T09:00:00Z', conversation: conversationId });
    memory.messages.append({ role: 'user', content: 'I like green tea.', time: '2026-09-02T09:00:00Z', conversation: memory.conversations.create('Tea').id });
    await learnAll(ui(), model);
    // The latest exchange: a message still waiting to be learned, and an answer longer than the screen.
    memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-15T09:00:00Z', conversation: conversationId });
    const answer = memory.messages.appendAll([
      { role: 'assistant', content: Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long answer about moving.`).join('\n'), time: '2026-09-15T09:00:05Z', conversation: conversationId, learn: false },
    ])[0]!.episode;
    memory.messages.recordFacts(answer.id, memory.facts.list().map((f) => f.id));
  });

  const answer = () => ui().page.locator('.message.assistant').last();
  const echo = () => answer().locator('.learned-echo');

  it('tells what the latest message taught under its answer, in view when the learning arrives after it', async () => {
    const { page } = ui();
    await go(page, `#/chat/${conversationId}`);
    await expect.poll(() => echo().locator('.learn-marker').textContent()).toBe('waiting to be learned');
    // The answer is taller than the list: the message itself is out of view, its note is not.
    const osaka = page.locator('.message.user', { hasText: 'I moved to Osaka.' });
    expect(await inView(osaka)).toBe(false);
    expect(await osaka.locator('.learn-marker, .learned').count()).toBe(0);

    await learnAll(ui(), model);
    const learned = echo().locator('.learned');
    await expect.poll(() => learned.locator('.learned-learned').textContent()).toBe('Learned:me · lives in · Osaka');
    await expect.poll(() => inView(learned)).toBe(true);
    expect(await echo().locator('.echo-label').textContent()).toBe('Your message:');
    // Earlier messages keep theirs under them.
    expect(await page.locator('.message.user', { hasText: 'I live in Tokyo.' }).locator('.learned-learned').textContent()).toBe('Learned:me · lives in · Tokyo');
    await screenshot(page, 'chat-learned-under-answer');
  });

  it('shows the facts an answer used as one line that opens on demand, without scores', async () => {
    const used = answer().locator('.used-facts');
    const toggle = used.getByRole('button', { name: 'Used 2 facts' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await used.locator('.fact-chip').count()).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(async () => (await used.locator('.fact-chip').allTextContents()).sort()).toEqual([
      'me · likes · green tea',
      expect.stringMatching(/^me · lives in · Tokyo/),
    ]);
    expect(await used.textContent()).not.toMatch(/score|\d\.\d/i);
    await toggle.click();
    await expect.poll(() => used.locator('.fact-chip').count()).toBe(0);
  });

  it('Undo shows "Undone · Redo"; Redo learns the same again without a model call, and both survive a reload', async () => {
    const { page } = ui();
    const memory = ui().engine.memory;
    const first = memory.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => [f.object, f.valid_at, f.invalid_at]);
    const calls = model.calls.length;

    await echo().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => echo().locator('.undone .learn-marker').first().textContent()).toBe('Undone · Redo');
    expect(await echo().locator('.undo-report').textContent()).toBe('forgot 1 fact; reopened I live in Tokyo.');
    await screenshot(page, 'chat-undone-redo');
    expect(memory.facts.list({ predicate: 'lives_in' }).map((f) => f.object)).toEqual(['Tokyo']);
    await page.reload();
    await expect.poll(() => echo().locator('.undone .learn-marker').first().textContent()).toBe('Undone · Redo');

    await echo().getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => echo().locator('.learned-learned').textContent()).toBe('Learned:me · lives in · Osaka');
    expect(await echo().locator('.learned-closed .fact-chip').textContent()).toMatch(/^me · lives in · Tokyo \(/);
    expect(memory.facts.list({ predicate: 'lives_in' }).map((f) => f.object)).toEqual(['Osaka']);
    expect(memory.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => [f.object, f.valid_at, f.invalid_at])).toEqual(first);
    expect(model.calls.length).toBe(calls);
    await page.reload();
    await expect.poll(() => echo().getByRole('button', { name: 'Undo' }).count()).toBe(1);
    expect(ui().browser.problems).toEqual([]);
  });
});

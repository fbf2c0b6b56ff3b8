/**
 * A long conversation in Chromium over the bridge (issue 29: the first window's data within a second
 * at any size): the chat reads a conversation from its end, a page of the latest messages, and says
 * how many earlier ones are not shown; "Show earlier messages" reads a page more and leaves the
 * view where the reader was; a link to an old message (a fact's source) opens it in its context,
 * highlighted; turning learning off asks about what earlier, unread messages may have taught.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const MESSAGES = 450;
const PAGE = 200;
let conversationId = '';
const ids: string[] = [];

function seedLongConversation(engine: TemporaEngine): void {
  const start = Date.parse('2025-01-01T09:00:00.000Z');
  const appended = engine.memory.messages.appendAll(
    Array.from({ length: MESSAGES }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message number ${i + 1} of a long chat.`,
      time: new Date(start + i * 3_600_000).toISOString(),
      conversation: 'long',
      conversationTitle: 'A long chat',
      learn: false,
    })),
  );
  conversationId = appended[0]!.episode.conversation_id!;
  ids.push(...appended.map((a) => a.episode.id));
}

describe.skipIf(CHROMIUM_MISSING !== null)('a long conversation', () => {
  const ui = useUi({ engine: { startWorker: false }, seed: seedLongConversation, shotPrefix: 'chat-long' });

  const shown = () => ui().page.locator('.messages article.message');
  const texts = async () => (await shown().locator('.message-text').allTextContents()).map((t) => Number(/number (\d+)/.exec(t)?.[1]));

  it('opens at its end with the latest page, saying how many earlier messages are not shown', async () => {
    const { page } = ui();
    await go(page, '#/chat');
    await expect.poll(() => shown().count(), { timeout: 30_000 }).toBe(PAGE);
    const numbers = await texts();
    expect(numbers[0]).toBe(MESSAGES - PAGE + 1);
    expect(numbers.at(-1)).toBe(MESSAGES);
    expect(await page.getByTestId('show-earlier').textContent()).toBe(`Show earlier messages (${MESSAGES - PAGE} messages not shown)`);
    // The list is at its end: the last message is in view.
    await expect.poll(() => shown().last().isVisible()).toBe(true);
    await screenshot(page, 'chat-long-end');
    // At 900 px in dark mode too, with no serious axe-core finding in the message list.
    await page.setViewportSize({ width: 900, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('show-earlier').scrollIntoViewIfNeeded();
    const results = await new AxeBuilder({ page }).include('.messages').setLegacyMode(true).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await screenshot(page, 'chat-long-earlier-dark-900');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('reads a page more from the keyboard and leaves the view where the reader was', async () => {
    const { page } = ui();
    const earlier = page.getByTestId('show-earlier');
    await earlier.scrollIntoViewIfNeeded();
    const firstBefore = page.locator(`#message-${ids[MESSAGES - PAGE]!}`);
    const topBefore = (await firstBefore.boundingBox())!.y;
    await earlier.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => shown().count()).toBe(2 * PAGE);
    expect((await texts())[0]).toBe(MESSAGES - 2 * PAGE + 1);
    expect(await earlier.textContent()).toBe(`Show earlier messages (${MESSAGES - 2 * PAGE} messages not shown)`);
    // More are left: the focus stays on the button.
    expect(await earlier.evaluate((el) => el === document.activeElement)).toBe(true);
    // The message that was first is where it was (the earlier ones came in above it, out of view).
    const topAfter = (await firstBefore.boundingBox())!.y;
    expect(Math.abs(topAfter - topBefore)).toBeLessThan(40);
    await page.keyboard.press('Enter');
    await expect.poll(() => shown().count()).toBe(MESSAGES);
    expect(await earlier.count()).toBe(0);
    // The button is gone with the last of them: the focus on the first message newly shown, not on <body>.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`message-${ids[0]!}`);
  });

  it('opens a link to an old message in its context, highlighted', async () => {
    const { page } = ui();
    const linked = ids[99]!; // message number 100
    await go(page, '#/chat');
    await go(page, `#/chat/${encodeURIComponent(conversationId)}/${encodeURIComponent(linked)}`);
    const highlighted = page.locator('article.message.highlight');
    await expect.poll(() => highlighted.count(), { timeout: 30_000 }).toBe(1);
    expect(await highlighted.getAttribute('id')).toBe(`message-${linked}`);
    await expect.poll(() => highlighted.isVisible()).toBe(true);
    // Ten messages before it, and everything after it.
    expect((await texts())[0]).toBe(90);
    expect(await shown().count()).toBe(MESSAGES - 89);
    expect(await page.getByTestId('show-earlier').textContent()).toBe('Show earlier messages (89 messages not shown)');
    await screenshot(page, 'chat-long-linked');
  });

  it('asks about earlier messages not shown before it stops learning from the conversation', async () => {
    const { page } = ui();
    // A new window (the pages read before are this window's own): the latest page again.
    await go(page, '#/chat');
    await page.reload();
    await expect.poll(() => shown().count(), { timeout: 30_000 }).toBe(PAGE);
    // Learning was off for each message, not for the conversation: turning it off asks, since unread ones may have been learned.
    await page.getByLabel('Don’t learn from this conversation').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('Tempora learned from 0 messages of those shown here, and perhaps from earlier ones.');
    await dialog.getByRole('button', { name: 'Stop, keep what was learned' }).click();
    await expect.poll(() => page.getByLabel('Don’t learn from this conversation').isChecked()).toBe(true);
  });
});

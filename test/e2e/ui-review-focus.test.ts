/**
 * Where the focus goes after a decision on the Review screen, for a keyboard user: to the next
 * waiting message while there is one, and after the last (approved or rejected, by key or button) to
 * the screen's own "Nothing waiting for review." — never to the page's body, where the next Tab
 * starts from the top of the page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

describe.skipIf(CHROMIUM_MISSING !== null)('the focus after a review decision', () => {
  const ui = useUi({ zone: 'UTC', engine: { startWorker: false }, shotPrefix: 'review-focus' });

  beforeAll(() => {
    ui().engine.memory.review.setBeforeRemembering(true);
  });

  /** Holds one fact per text for review, as an agent's (MCP remember_facts with review on), and opens the Review screen afresh. */
  async function hold(...texts: string[]) {
    const { page, engine } = ui();
    for (const [i, text] of texts.entries()) {
      const held = engine.memory.facts.observe([{ subject: 'me', predicate: 'plays', object: text, fact: `I play ${text}.`, reference_time: `2026-09-0${i + 1}T09:00:00Z` }], { where: 'facts', agent: 'Helper' }).heldForReview;
      expect(held).toHaveLength(1);
    }
    await go(page, '#/data');
    await go(page, '#/review');
    await expect.poll(() => page.getByTestId('review-item').count()).toBe(texts.length);
  }

  /** What has the focus: a review item (by its message), the screen's status, or another element by its tag. */
  const focused = () =>
    ui().page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'body';
      if (el.matches('[data-testid="review-item"]')) return `item: ${el.querySelector('.review-message')?.textContent ?? ''}`;
      if (el.closest('.review-screen .screen-header')) return `header: ${el.textContent ?? ''}`;
      return el.tagName.toLowerCase();
    });

  const status = () => ui().page.locator('.review-screen .screen-header [role="status"]').textContent();

  it('moves to the next message after an approval, and to "Nothing waiting" after approving the last (key A)', async () => {
    const { page } = ui();
    await hold('tennis', 'chess');
    // The newest first: chess, then tennis.
    await page.getByTestId('review-item').first().focus();
    expect(await focused()).toBe('item: I play chess.');
    await page.keyboard.press('a');
    await expect.poll(status).toBe('1 message waiting');
    await expect.poll(focused).toBe('item: I play tennis.');
    await page.keyboard.press('a');
    await expect.poll(status).toBe('Nothing waiting for review.');
    await expect.poll(focused).toBe('header: Nothing waiting for review.');
    // From there the keyboard goes on within the screen: Tab reaches the review setting below it.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.review-screen') !== null)).toBe(true);
  });

  it('lands on "Nothing waiting" after rejecting the last message (key R)', async () => {
    const { page, engine } = ui();
    await hold('golf');
    await page.getByTestId('review-item').first().focus();
    await page.keyboard.press('r');
    await expect.poll(status).toBe('Nothing waiting for review.');
    await expect.poll(focused).toBe('header: Nothing waiting for review.');
    expect(engine.memory.facts.list({ history: false, predicate: 'plays' }).map((f) => f.object).sort()).toEqual(['chess', 'tennis']);
  });

  it('lands there too after the last is decided with its button', async () => {
    const { page } = ui();
    await hold('go');
    await page.getByTestId('review-item').first().getByRole('button', { name: /^Reject/ }).click();
    await expect.poll(status).toBe('Nothing waiting for review.');
    await expect.poll(focused).toBe('header: Nothing waiting for review.');
  });
});

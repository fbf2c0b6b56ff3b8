/**
 * Review before remembering, in Chromium over the bridge, with the scripted model learning: the
 * setting turned on in the Review screen, learned messages wait there (counted in the navigation,
 * no fact yet), one is approved with a fact corrected first — from the keyboard — and one rejected;
 * a bad time in an edit shows the engine's error naming the field and changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../fixtures/scripted-model';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { learnAll } from './helpers/learn-all';
import { go, useUi } from './helpers/ui-session';

const fact = (predicate: string, object: string, text: string, cardinality: 'one' | 'many' = 'one') => ({ subject: 'me', subject_type: 'user' as const, predicate, object, object_type: 'place' as const, fact: text, cardinality });
const model = scriptedModel({
  extract: {
    'I live in Tokyo.': [fact('lives_in', 'Tokyo', 'I live in Tokyo.')],
    'I visited Kyoto and Nara.': [fact('visited', 'Kyoto', 'I visited Kyoto.', 'many'), fact('visited', 'Nara', 'I visited Nara.', 'many')],
    'My manager is Sato.': [{ ...fact('manager', 'Sato', 'My manager is Sato.'), object_type: 'person' as const }],
  },
});

let conversationId: string;

describe.skipIf(CHROMIUM_MISSING !== null)('review before remembering', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', engine: { startWorker: false }, shotPrefix: 'review' });

  beforeAll(() => {
    conversationId = ui().engine.memory.conversations.create().id;
  });

  it('is off by default; turned on, learned messages wait in the inbox and nothing is remembered', async () => {
    const { page, engine } = ui();
    await go(page, '#/review');
    await expect.poll(() => page.locator('.review-screen [role="status"]').textContent()).toBe('Nothing waiting for review.');
    expect(await page.getByTestId('review-enabled').isChecked()).toBe(false);
    await page.getByTestId('review-enabled').check();
    await expect.poll(() => engine.memory.review.status().reviewBeforeRemembering).toBe(true);
    for (const [content, time] of [
      ['My manager is Sato.', '2026-09-01T09:00:00+09:00'],
      ['I visited Kyoto and Nara.', '2026-09-02T09:00:00+09:00'],
      ['I live in Tokyo.', '2026-09-03T09:00:00+09:00'],
    ] as const) {
      engine.memory.messages.append({ role: 'user', content, time, timeZone: 'Asia/Tokyo', conversation: conversationId });
    }
    await learnAll(ui(), model);
    expect(engine.memory.facts.list({ history: true })).toEqual([]);
    await expect.poll(() => page.locator('.review-screen [role="status"]').textContent()).toBe('3 messages waiting');
    await expect.poll(() => page.getByTestId('review-count').textContent()).toBe('3');
    // The newest message first.
    expect(await page.locator('.review-message').allTextContents()).toEqual(['I live in Tokyo.', 'I visited Kyoto and Nara.', 'My manager is Sato.']);
    const first = page.getByTestId('review-item').first();
    expect(await first.getByTestId('proposed-fact').textContent()).toContain('me · lives in · Tokyo');
    // The start as said, in the user's zone (the message came on 3 Sep at 09:00 Tokyo time).
    expect(await first.getByTestId('proposed-fact').textContent()).toContain('Sep 3, 2026');
    await screenshot(page, 'review', { docs: true });
  });

  it('approves from the keyboard with a fact corrected first; rejects another; the next takes the focus', async () => {
    const { page, engine } = ui();
    const first = page.getByTestId('review-item').first();
    await first.focus();
    await page.keyboard.press('e');
    await first.getByTestId('edit-object').fill('Yokohama');
    await first.getByTestId('edit-valid-at').fill('2026-08');
    await first.focus();
    await page.keyboard.press('a');
    await expect.poll(() => page.locator('.review-screen [role="status"]').textContent()).toBe('2 messages waiting');
    const lives = engine.memory.facts.list({ history: false, predicate: 'lives_in' });
    expect(lives.map((f) => [f.object, f.valid_at, f.valid_at_precision])).toEqual([['Yokohama', '2026-07-31T15:00:00.000Z', 'month']]);
    // The next message has the focus: leave Nara out, approve with the button.
    await expect.poll(() => page.evaluate(() => {
          // The focused element itself must be a review item (not the page, which contains one too).
          const focused = document.activeElement;
          return focused?.matches('[data-testid="review-item"]') ? focused.querySelector('.review-message')?.textContent : null;
        })).toBe('I visited Kyoto and Nara.');
    const visited = page.getByTestId('review-item').first();
    await visited.getByRole('checkbox', { name: 'Keep: I visited Nara.' }).uncheck();
    await visited.getByRole('button', { name: 'Approve 1 of 2 facts' }).click();
    await expect.poll(() => engine.memory.facts.list({ history: false, predicate: 'visited' }).map((f) => f.object)).toEqual(['Kyoto']);
    // The last one: rejected with R.
    await expect.poll(() => page.evaluate(() => {
          // The focused element itself must be a review item (not the page, which contains one too).
          const focused = document.activeElement;
          return focused?.matches('[data-testid="review-item"]') ? focused.querySelector('.review-message')?.textContent : null;
        })).toBe('My manager is Sato.');
    await page.keyboard.press('r');
    await expect.poll(() => page.locator('.review-screen [role="status"]').textContent()).toBe('Nothing waiting for review.');
    expect(engine.memory.facts.list({ history: false, predicate: 'manager' })).toEqual([]);
    // The nav's badge answers from its own query.
    await expect.poll(() => page.getByTestId('review-count').count()).toBe(0);
  });

  it('shows the engine’s error for a time it cannot read, naming the field, and remembers nothing', async () => {
    const { page, engine } = ui();
    engine.memory.messages.append({ role: 'user', content: 'My manager is Sato.', time: '2026-09-05T09:00:00+09:00', timeZone: 'Asia/Tokyo', conversation: conversationId });
    await learnAll(ui(), model);
    const item = page.getByTestId('review-item').first();
    await item.waitFor();
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByTestId('edit-valid-at').fill('someday soon');
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => item.locator('.error-text').textContent()).toMatch(/edits\.0\.validAt: not a time: "someday soon"/);
    expect(engine.memory.facts.list({ history: false, predicate: 'manager' })).toEqual([]);
    expect(engine.memory.review.status().waiting).toBe(1);
    // The export says that what waits is not in it.
    await go(page, '#/data');
    await expect.poll(() => page.getByTestId('export-review-note').textContent()).toContain('1 message waits for review: what it proposes is not in the export.');
  });

  it("shows an agent's facts held for review as from that agent", async () => {
    const { page, engine } = ui();
    // What MCP remember_facts does with review on (test/integration/review-other-doors.test.ts).
    const line = { subject: 'me', predicate: 'plays', object: 'tennis', fact: 'I play tennis.', reference_time: '2026-09-06T09:00:00+09:00' };
    const held = engine.memory.facts.observe([line], { where: 'facts', agent: 'Research Agent' }).heldForReview;
    expect(held).toHaveLength(1);
    await go(page, '#/review');
    const item = page.locator(`[data-testid="review-item"]:has-text("I play tennis.")`);
    await expect.poll(() => item.getByTestId('review-agent').textContent()).toBe('from agent Research Agent · ');
    expect(engine.memory.facts.list({ history: false, predicate: 'plays' })).toEqual([]);
  });
});

/**
 * The Timeline's as-of field as the user trial typed it (Tokyo; en-GB and ja-JP), in Chromium
 * against the bridge: a month typed is shown back as the month ("March 2025", "2025年3月"), not its
 * last day, on the field and the cursor's label, with the cursor at that month's end; a year as the
 * year; a day as the day. "today" (今日) and the Today button follow the clock, as the Facts list's
 * as-of does: the field empties to now, and the cursor moves on as the minutes pass.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { trialMemory } from './helpers/timeline';
import { go, useUi } from './helpers/ui-session';

const memory = trialMemory();
const cursorAt = async (page: Page) => Date.parse((await page.locator('#asof-title time').getAttribute('datetime'))!);
const label = (page: Page) => page.locator('.tl-cursor-label').textContent();

/** Types `text` into the Timeline's as-of field and presses Enter. */
async function typeAsOf(page: Page, text: string) {
  const field = page.getByLabel('As of (Asia/Tokyo)', { exact: true });
  await field.fill(text);
  await field.press('Enter');
  return field;
}

/** "today" typed, then five minutes on the page's clock: the cursor moved with them. */
async function expectFollowsClock(page: Page, today: string) {
  await typeAsOf(page, '1 January 2025');
  await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-01-01T14:59:59.998Z'));
  const field = await typeAsOf(page, today);
  await expect.poll(() => field.inputValue()).toBe('');
  await expect.poll(() => cursorAt(page)).toBeGreaterThan(Date.now() - 120_000);
  const typed = await cursorAt(page);
  await page.clock.fastForward('05:00');
  await expect.poll(() => cursorAt(page)).toBeGreaterThanOrEqual(typed + 4 * 60_000);
  expect(await label(page)).toBe('as of now');
}

for (const locale of ['en-GB', 'ja-JP'] as const) {
  const words =
    locale === 'en-GB'
      ? { month: 'March 2025', monthShown: 'March 2025', day: '1 January 2025', dayShown: '1 Jan 2025', today: 'today' }
      : { month: '2025年3月', monthShown: '2025年3月', day: '2025年1月1日', dayShown: '2025年1月1日', today: '今日' };

  describe.skipIf(CHROMIUM_MISSING !== null)(`the timeline’s as-of field as typed (${locale})`, () => {
    const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, locale, seed: (engine) => void engine.memory.facts.observe(memory.observations, { where: 'a trial' }), shotPrefix: `timeline-asof-${locale}`, shotNameLength: 30 });

    it('shows a month typed as the month, a year as the year, a day as the day', async () => {
      const { page } = ui();
      await go(page, '#/timeline');
      await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
      const field = await typeAsOf(page, words.month);
      // The cursor at the month's end in Tokyo (what was true by then), the month shown back.
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-03-31T14:59:59.998Z'));
      await expect.poll(() => field.inputValue()).toBe(words.monthShown);
      expect(await label(page)).toBe(`as of ${words.monthShown}`);
      await screenshot(page, `timeline-asof-month-${locale}`);
      await typeAsOf(page, '2024');
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2024-12-31T14:59:59.998Z'));
      await expect.poll(() => field.inputValue()).toBe(locale === 'ja-JP' ? '2024年' : '2024');
      await typeAsOf(page, words.day);
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-01-01T14:59:59.998Z'));
      await expect.poll(() => field.inputValue()).toBe(words.dayShown);
      // Moved by hand, the cursor is a day again.
      await page.getByTestId('asof-handle').focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => field.inputValue()).not.toBe(words.dayShown);
      expect(await field.inputValue()).toMatch(/2025/);
    });

    it('answers for the user first, then for others, the newest first', async () => {
      const { page } = ui();
      await go(page, '#/timeline');
      await typeAsOf(page, words.day);
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-01-01T14:59:59.998Z'));
      const questions = page.getByTestId('asof-answer').locator('.asof-question');
      await expect.poll(() => questions.count()).toBeGreaterThan(10);
      const asked = await questions.allTextContents();
      const own = asked.filter((q) => q.startsWith('me · ')).length;
      // Others' answers are the newest there; still, the user's own come first, as on the chart.
      expect(own).toBeGreaterThan(0);
      expect(asked.slice(0, own).every((q) => q.startsWith('me · '))).toBe(true);
      expect(asked.slice(own).some((q) => q.startsWith('me · '))).toBe(false);
    });

    it('keeps what is typed the moment the cursor moves', async () => {
      // The fault CI met once: the field was reset to the new moment in an effect after the commit
      // that moved the cursor, so text typed in between was overwritten. Typed here from a mutation
      // observer on the cursor's time, which runs right after that commit and before any effect.
      const { page } = ui();
      await go(page, '#/timeline');
      await typeAsOf(page, words.month);
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-03-31T14:59:59.998Z'));
      await page.evaluate((text) => {
        const cursor = document.querySelector('#asof-title time')!;
        const field = [...document.querySelectorAll('label')].find((l) => l.textContent?.startsWith('As of (Asia/Tokyo)'))?.control as HTMLInputElement;
        const observer = new MutationObserver(() => {
          observer.disconnect();
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, text);
          field.dispatchEvent(new Event('input', { bubbles: true }));
        });
        observer.observe(cursor, { attributes: true, attributeFilter: ['datetime'] });
      }, words.today);
      const field = await typeAsOf(page, words.day);
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-01-01T14:59:59.998Z'));
      await expect.poll(() => field.inputValue()).toBe(words.today);
      await field.press('Enter');
      await expect.poll(() => field.inputValue()).toBe('');
      await expect.poll(() => label(page)).toBe('as of now');
    });

    it('drops an error once its text is changed or Today resets the field', async () => {
      const { page } = ui();
      await go(page, '#/timeline');
      const toolbar = page.locator('.tl-toolbar');
      const field = page.getByLabel('As of (Asia/Tokyo)', { exact: true });
      const error = page.locator('.tl-toolbar .time-field', { has: field }).getByRole('alert');
      await page.getByRole('button', { name: 'Today', exact: true }).click();
      await expect.poll(() => field.inputValue()).toBe('');
      const height = (await toolbar.boundingBox())!.height;
      /** No error, and none comes back later (the answer for the text left behind is dropped). */
      const noError = async () => {
        await expect.poll(() => error.count()).toBe(0);
        await page.waitForTimeout(400);
        expect(await error.count()).toBe(0);
        expect(await field.getAttribute('aria-invalid')).toBeNull();
        expect((await toolbar.boundingBox())!.height).toBe(height);
      };
      // Following the clock already: Today puts the field back to now all the same.
      await typeAsOf(page, '2026-02-30');
      await expect.poll(() => error.count()).toBe(1);
      await page.getByRole('button', { name: 'Today', exact: true }).click();
      await expect.poll(() => field.inputValue()).toBe('');
      await noError();
      // At a day: Today follows the clock again, and the error goes with the text.
      await typeAsOf(page, words.day);
      await expect.poll(async () => (await cursorAt(page)) < Date.parse('2025-01-02T00:00:00Z')).toBe(true);
      await typeAsOf(page, '2026-02-30');
      await expect.poll(() => error.count()).toBe(1);
      await page.getByRole('button', { name: 'Today', exact: true }).click();
      await expect.poll(() => field.inputValue()).toBe('');
      await noError();
      // Text changed: the error was about other text, so it goes as soon as the text changes.
      await typeAsOf(page, 'blah');
      await expect.poll(() => error.count()).toBe(1);
      await field.fill(words.day);
      await noError();
      await field.press('Enter');
      await expect.poll(async () => (await cursorAt(page)) < Date.parse('2025-01-02T00:00:00Z')).toBe(true);
      await page.getByRole('button', { name: 'Today', exact: true }).click();
    });

    it(`follows the clock once “${words.today}” is typed or Today pressed`, async () => {
      const { page } = ui();
      await page.clock.install({ time: Date.now() });
      await expectFollowsClock(page, words.today);
      await screenshot(page, `timeline-asof-today-${locale}`);
      // The Today button likewise.
      await typeAsOf(page, words.day);
      await expect.poll(() => cursorAt(page)).toBe(Date.parse('2025-01-01T14:59:59.998Z'));
      await page.getByRole('button', { name: 'Today', exact: true }).click();
      await expect.poll(() => page.getByLabel('As of (Asia/Tokyo)', { exact: true }).inputValue()).toBe('');
      const pressed = await cursorAt(page);
      await page.clock.fastForward('05:00');
      await expect.poll(() => cursorAt(page)).toBeGreaterThanOrEqual(pressed + 4 * 60_000);
      // The now mark moves on with the clock too: in a long session the cursor never passes it.
      const nowMark = () => page.locator('.tl-now-mark').getAttribute('data-at').then(Number);
      await page.clock.fastForward('02:00:00');
      await expect.poll(() => cursorAt(page)).toBeGreaterThanOrEqual(pressed + 120 * 60_000);
      await expect.poll(nowMark).toBeGreaterThanOrEqual(pressed + 120 * 60_000);
      // The cursor at now says "as of now": the mark says nothing beside it, only elsewhere.
      expect(await page.locator('.tl-now-mark text').count()).toBe(0);
      await typeAsOf(page, words.day);
      await expect.poll(() => page.locator('.tl-now-mark text').textContent()).toBe('now');
    });
  });
}

/**
 * The as-of field keeps what the user types while the moment typed before is being shown. Typed
 * "2026-09-14" and Enter, then "2026-09-13" typed as the first answer lands: the field used to put
 * "Sep 14, 2026" back over the new text (the new moment's reset ran in a later render than the
 * keystroke's), so the next Enter asked nothing and the panel kept answering for the 14th.
 *
 * To land the keystroke in that gap every time, the page's WebSocket is wrapped before the app
 * starts (an init script: the page's CSP allows no inline script): after the app has read the
 * answer to its readTime call, the test types in the next task — before React's render of the
 * answer, which is scheduled only once the answer's promise callbacks have run.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM_MISSING } from './helpers/browser';
import { seedMemory } from './helpers/seed-memory';
import { asOfAnswer } from './helpers/timeline';
import { go, useUi } from './helpers/ui-session';

interface Hooked {
  afterMessage?: (data: unknown) => void;
  typedOn?: string;
}

/** Wraps the page's WebSocket so a test can act right after the app has handled a frame. */
async function hookAnswers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      override set onmessage(handler: ((event: MessageEvent) => void) | null) {
        super.onmessage = handler && ((event: MessageEvent) => {
          handler.call(this, event);
          (window as unknown as Hooked).afterMessage?.(event.data);
        });
      }
      override get onmessage() {
        return super.onmessage;
      }
    };
  });
  await page.reload();
  await page.locator('nav[aria-label="Main"]').waitFor();
}

/** Types `text` into the field labelled `label` in the task after the next readTime answer is read. */
async function typeAsTheAnswerLands(page: Page, label: string, text: string): Promise<void> {
  await page.evaluate(
    ([label, text]) => {
      const hooked = window as unknown as Hooked;
      hooked.afterMessage = (data) => {
        const message = JSON.parse(String(data)) as { type?: string; value?: { precision?: unknown } };
        if (message.type !== 'result' || message.value?.precision === undefined) return;
        hooked.afterMessage = undefined;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const input = [...document.querySelectorAll('label')].find((l) => l.textContent === label)?.control as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          hooked.typedOn = text;
        };
        channel.port2.postMessage(0);
      };
    },
    [label, text],
  );
}

describe.skipIf(CHROMIUM_MISSING !== null)('a moment typed while the one before is shown', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed: seedMemory, shotPrefix: 'moment-typed-on' });

  it('keeps the text typed as the answer lands, and Enter then reads it', async () => {
    const { page } = ui();
    await hookAnswers(page);
    await go(page, '#/timeline');
    const label = 'As of (Asia/Tokyo)';
    const field = page.getByLabel(label, { exact: true });
    await expect.poll(() => asOfAnswer(page, 'me · manager')).toBe('B');
    await typeAsTheAnswerLands(page, label, '2026-09-13');
    await field.fill('2026-09-14');
    await field.press('Enter');
    await expect.poll(() => page.evaluate(() => (window as unknown as Hooked).typedOn)).toBe('2026-09-13');
    // The 14th is shown (its answer was current when it came), and the field keeps what was typed since.
    await expect.poll(() => page.locator('#asof-title').textContent()).toBe('True as of Sep 14, 2026');
    expect(await field.inputValue()).toBe('2026-09-13');
    await field.press('Enter');
    await expect.poll(() => page.locator('#asof-title').textContent()).toBe('True as of Sep 13, 2026');
    await expect.poll(() => asOfAnswer(page, 'me · manager')).toBe('A');
    expect(await field.inputValue()).toBe('Sep 13, 2026');
  });
});

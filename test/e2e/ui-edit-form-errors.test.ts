/**
 * The fact forms as a reviewer found them, in Chromium against the bridge: a time that cannot be
 * read leaves "True from" and "True until" level (the error grows under its own field, the other
 * stays where it was), and is said as the Timeline's As-of field says it — the examples in the
 * locale's order, in curly quotes — not in the engine's words; an impossible date says why. An end
 * set in the future is not "closed": the note and the version's why say the end is set.
 * At 1280 and 900 px, light and dark.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

function seed(engine: TemporaEngine): void {
  engine.memory.facts.observe([
    { subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: '2025-02-01T03:00:00.000Z', valid_at: '2025-02-01T00:00:00.000Z', cardinality: 'many' },
    { subject: 'me', predicate: 'works_at', object: 'Harbour Ltd', fact: 'I work at Harbour Ltd.', reference_time: '2025-03-01T03:00:00.000Z', valid_at: '2025-03-01T00:00:00.000Z', cardinality: 'one' },
  ]);
}

const factId = (engine: TemporaEngine, predicate: string) => engine.memory.facts.list().find((f) => f.predicate === predicate)!.id;

/** The top edges of the two time fields' inputs and their labels. */
async function tops(page: Page) {
  const box = async (label: RegExp) => (await page.getByLabel(label).boundingBox())!;
  const from = await box(/^True from$/);
  const until = await box(/^True until/);
  return { from: from.y, until: until.y, fromX: from.x, untilX: until.x };
}

describe.skipIf(CHROMIUM_MISSING !== null)('the fact forms when a time is wrong or to come', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', locale: 'en-GB', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'edit-form' });

  for (const width of [1280, 900]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`keeps True from and True until level under an error, said as the As-of field says it (${width} px, ${theme})`, async () => {
        const { page, engine } = ui();
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: theme });
        await go(page, '#/facts');
        await go(page, `#/facts/${encodeURIComponent(factId(engine, 'likes'))}`);
        await page.getByRole('button', { name: 'Edit' }).click();
        const until = page.getByLabel(/^True until/);
        const before = await tops(page);
        expect(before.from).toBe(before.until);
        expect(before.fromX).toBeLessThan(before.untilX);

        // A misspelt month: no time at all. The words of the As-of field, in the locale's order.
        await until.fill('31 Febuary');
        await until.press('Enter');
        const untilField = page.locator('.fact-form .field', { has: until });
        const error = untilField.getByRole('alert');
        await expect
          .poll(() => error.textContent())
          .toBe('True until: “31 Febuary” cannot be read as a time: write a date like 1 Jun 2026, a time like 1 Jun 2026, 10:00, or words like “yesterday”.');
        // The fields stay where they were: level, from on the left.
        const after = await tops(page);
        expect(after).toEqual(before);
        await screenshot(page, `edit-form-error-${width}-${theme}`);

        // An impossible date says why.
        await until.fill('2026-02-31');
        await until.press('Enter');
        await expect.poll(() => error.textContent()).toBe('True until: 2026-02-31 is not a date: February 2026 has 28 days');
        expect(await tops(page)).toEqual(before);

        // A good end before the start: the refusal under it, the fields still level.
        await until.fill('2024-01-01');
        await until.press('Enter');
        await expect.poll(() => error.textContent()).toMatch(/^True until \(1 Jan 2024\) must be after true from/);
        expect(await tops(page)).toEqual(before);
        await page.getByRole('button', { name: 'Cancel' }).click();
      });
    }
  }

  it('drops a time error once that field is changed', async () => {
    const { page, engine } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await go(page, `#/facts/${encodeURIComponent(factId(engine, 'likes'))}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const until = page.getByLabel(/^True until/);
    const error = page.locator('.fact-form .field', { has: until }).getByRole('alert');
    await until.fill('blah');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => error.count()).toBe(1);
    expect(await until.getAttribute('aria-invalid')).toBe('true');
    await until.fill('先週');
    await until.press('Tab');
    await expect.poll(() => error.count()).toBe(0);
    expect(await until.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('.fact-form [role="alert"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('says a fact closed at a time to come ends then, not that it was closed', async () => {
    const { page, engine } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await go(page, `#/facts/${encodeURIComponent(factId(engine, 'works_at'))}`);
    await page.getByRole('button', { name: 'Close…' }).click();
    await page.getByLabel('No longer true from').fill('15 January 2027');
    await page.getByRole('button', { name: 'Close fact' }).click();
    await expect.poll(() => page.locator('.fact-page .note').textContent()).toBe('Ends: true since 1 Mar 2025, 09:00, until 15 Jan 2027.');
    const current = page.locator('.versions > li.current');
    expect(await current.locator('.version-reason').textContent()).toBe('Why: you set its end');
    await screenshot(page, 'edit-form-future-end');
  });

  it('still says closed for an end in the past', async () => {
    const { page, engine } = ui();
    await go(page, `#/facts/${encodeURIComponent(factId(engine, 'likes'))}`);
    await page.getByRole('button', { name: 'Close…' }).click();
    await page.getByLabel('No longer true from').fill('1 March 2026');
    await page.getByRole('button', { name: 'Close fact' }).click();
    await expect.poll(() => page.locator('.fact-page .note').textContent()).toBe('Closed: true 1 Feb 2025, 09:00 – 1 Mar 2026.');
    expect(await page.locator('.versions > li.current .version-reason').textContent()).toBe('Why: you closed it');
  });
});

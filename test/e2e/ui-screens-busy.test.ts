/**
 * A screen whose request the bridge refuses as busy says so in its kind's sentence, not the bridge's
 * raw words ("too many calls at once (at most 64)"): the Facts list, a fact's page and the Review
 * list, each with its call refused through the page's routed WebSocket (helpers/refused-calls.ts),
 * and an action (the Review switch) refused the same way; so do the forms' saves (a fact's edit and
 * close forms, the time zone), the as-of field's reading of what was typed, the form kept open, and
 * a model's Download.
 * Pictures of the Facts list's at 900 px, light and dark.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { CHROMIUM_MISSING } from './helpers/browser';
import { BUSY, BUSY_SENTENCE, routeRefusals, type RefusedCalls } from './helpers/refused-calls';
import { screenshot } from './helpers/screenshots';
import { seedMemory } from './helpers/seed-memory';
import { go, useUi } from './helpers/ui-session';

describe.skipIf(CHROMIUM_MISSING !== null)('a screen whose request is refused as busy', () => {
  const ui = useUi({ zone: 'UTC', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed: seedMemory, shotPrefix: 'screens-busy' });
  let calls: RefusedCalls;

  beforeAll(async () => {
    calls = await routeRefusals(ui().page);
  });

  /** Refuses the calls named while the screen at `hash` opens; the alert it shows. */
  async function refusedOn(page: Page, hash: string, screen: string, names: string[]): Promise<Locator> {
    const before = calls.refused.length;
    calls.refuse((call) => (names.includes(call.name) ? BUSY : null));
    await go(page, hash);
    await expect.poll(() => calls.refused.length).toBeGreaterThan(before);
    const alert = page.locator(screen).getByRole('alert');
    await expect.poll(() => alert.first().textContent()).toBe(BUSY_SENTENCE);
    expect(await page.getByText(BUSY.error, { exact: false }).count()).toBe(0);
    return alert;
  }

  it('the Facts list says Tempora is busy', async () => {
    const { page } = ui();
    await refusedOn(page, '#/facts', '.facts-screen', ['listFacts', 'searchFacts']);
    // A list that could not be read is not an empty memory: no "0 facts", no "No facts yet".
    await expect.poll(() => page.locator('.facts-screen .result-count').textContent()).toBe('');
    expect(await page.locator('.facts-screen .empty').count()).toBe(0);
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 900, height: 800 });
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `screens-busy-facts-900-${theme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    calls.refuse(null);
  });

  it('a fact’s page says Tempora is busy', async () => {
    const { page, engine } = ui();
    const id = engine.memory.facts.list({ predicate: 'manager' })[0]!.id;
    await refusedOn(page, `#/facts/${encodeURIComponent(id)}`, '.fact-page', ['factDetails']);
    calls.refuse(null);
  });

  it('the Review list says Tempora is busy', async () => {
    const { page } = ui();
    await refusedOn(page, '#/review', '.review-screen', ['pendingReviews']);
    calls.refuse(null);
  });

  it('an action refused (Review’s switch) says Tempora is busy', async () => {
    const { page } = ui();
    await go(page, '#/review');
    const toggle = page.getByTestId('review-enabled');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    const before = calls.refused.length;
    calls.refuse((call) => (call.name === 'setReviewBeforeRemembering' ? BUSY : null));
    await toggle.click();
    await expect.poll(() => calls.refused.length).toBeGreaterThan(before);
    await expect.poll(() => page.locator('.review-setting').getByRole('alert').textContent()).toBe(BUSY_SENTENCE);
    expect(await toggle.isChecked()).toBe(false);
    calls.refuse(null);
  });

  /** Refuses the call named while `act` runs; waits for the refusal and for `place`'s alert to say busy. */
  async function refusedAction(page: Page, name: string, place: Locator, act: () => Promise<void>): Promise<void> {
    const before = calls.refused.length;
    calls.refuse((call) => (call.name === name ? BUSY : null));
    try {
      await act();
      await expect.poll(() => calls.refused.length).toBeGreaterThan(before);
      await expect.poll(() => place.getByRole('alert').allTextContents()).toEqual([BUSY_SENTENCE]);
      expect(await page.getByText(BUSY.error, { exact: false }).count()).toBe(0);
    } finally {
      calls.refuse(null);
    }
  }

  it('a fact’s edit form whose Save is refused says Tempora is busy, the form kept as typed', async () => {
    const { page, engine } = ui();
    const fact = engine.memory.facts.list({ predicate: 'manager' })[0]!;
    await go(page, `#/facts/${encodeURIComponent(fact.id)}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.locator('.fact-form');
    await page.getByLabel('Fact', { exact: true }).fill('My manager is B, since September.');
    await refusedAction(page, 'editFact', form, () => page.getByRole('button', { name: 'Save' }).click());
    // Not about one field: none is marked, the focus is on Save, and what was typed is kept.
    expect(await form.locator('[aria-invalid="true"]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save');
    expect(await page.getByLabel('Fact', { exact: true }).inputValue()).toBe('My manager is B, since September.');
    await page.keyboard.press('Escape');
    await expect.poll(() => form.count()).toBe(0);
    expect(engine.memory.facts.list({ predicate: 'manager' })[0]!.fact).toBe(fact.fact);
  });

  it('a fact’s close form whose Close is refused says Tempora is busy', async () => {
    const { page, engine } = ui();
    const fact = engine.memory.facts.list({ predicate: 'manager' })[0]!;
    await go(page, `#/facts/${encodeURIComponent(fact.id)}`);
    await page.getByRole('button', { name: 'Close…' }).click();
    const form = page.locator('.fact-form');
    await refusedAction(page, 'closeFact', form, () => page.getByRole('button', { name: 'Close fact' }).click());
    expect(await form.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => form.count()).toBe(0);
    expect(engine.memory.facts.list({ predicate: 'manager' })[0]!.invalid_at).toBeNull();
  });

  it('the time zone whose save is refused says Tempora is busy, the zone unchanged', async () => {
    const { page } = ui();
    await go(page, '#/settings');
    const setting = page.locator('.time-zone-setting');
    const current = page.getByTestId('time-zone-current');
    await expect.poll(() => current.textContent()).toContain('UTC');
    await setting.getByLabel('Zone').fill('Europe/Berlin');
    await refusedAction(page, 'setTimeZone', setting, () => setting.getByRole('button', { name: 'Use this zone' }).click());
    expect(await current.textContent()).toContain('UTC');
  });

  it('the as-of field whose reading is refused says Tempora is busy under it', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    const field = page.locator('.facts-screen .time-field');
    await refusedAction(page, 'readTime', field, async () => {
      await field.getByRole('textbox').fill('yesterday');
      await field.getByRole('textbox').press('Enter');
    });
    expect(await field.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
  });

  it('a model’s Download refused says Tempora is busy on its card', async () => {
    const { page } = ui();
    await go(page, '#/models');
    const card = page.locator('.model-card', { has: page.getByRole('button', { name: 'Download' }) }).first();
    await expect.poll(() => card.count()).toBe(1);
    await refusedAction(page, 'downloadModel', card, () => card.getByRole('button', { name: 'Download' }).click());
    expect(await card.getByText('Download cancelled').count()).toBe(0);
  });
});

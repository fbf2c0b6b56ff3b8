/**
 * A fact's page from the keyboard alone, in Chromium against the bridge (real engine): Edit and
 * Close… move the focus into their form's first field; Cancel and Escape put it back on the button
 * that opened the form; a save or a close lands on the new version's page with the focus on its
 * heading; the Forget dialog keeps its own Escape. A fact page opened by navigation (Enter on a
 * Timeline bar) focuses its heading, and a refresh of the same fact leaves the focus where it is.
 * The edit form adds no axe violation to the page.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

function seed(engine: TemporaEngine): void {
  const observe = (subject: string, predicate: string, object: string, fact: string, at: string) =>
    engine.memory.facts.observe([{ subject, predicate, object, fact, reference_time: at, cardinality: 'one' }]);
  observe('me', 'manager', 'A', 'My manager is A.', '2026-09-01T01:00:00Z');
  observe('Sato', 'likes', 'tea', 'Sato likes tea.', '2026-09-02T01:00:00Z');
  observe('Mei', 'works_at', 'Sony', 'Mei works at Sony.', '2026-09-03T01:00:00Z');
}

/** The focused element as "role: name" ("button: Edit", "textbox: Fact", "heading: …"), "BODY" when none. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    const roles: Record<string, string> = { BUTTON: 'button', TEXTAREA: 'textbox', INPUT: 'textbox', A: 'link', H1: 'heading' };
    const role = el.getAttribute('role') ?? roles[el.tagName] ?? el.tagName.toLowerCase();
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
    return `${role}: ${(el.getAttribute('aria-label') ?? label ?? el.textContent ?? '').trim()}`;
  });
}

/** Presses Tab (or Shift+Tab) until the focus is on `target` ("button: Cancel"), as a keyboard user would. */
async function tabTo(page: Page, target: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    if (now === target) return;
    seen.push(now);
  }
  throw new Error(`no ${target} within 30 presses of ${key}; went through: ${seen.join(' | ')}`);
}

const hash = (page: Page) => page.evaluate(() => decodeURIComponent(window.location.hash));

/** Every axe violation on the page, as "rule target" lines. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.impact}: ${v.id} ${n.target.join(' ')}`));
}

describe.skipIf(CHROMIUM_MISSING !== null)("a fact's page from the keyboard", () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed });
  const idOf = (predicate: string) => ui().engine.memory.facts.list({ predicate })[0]!.id;

  it('moves the focus into the edit and close forms, back on Cancel and Escape, to the new page after a save', async () => {
    const { page } = ui();
    const first = idOf('manager');
    await go(page, `#/facts/${encodeURIComponent(first)}`);
    // Opened by navigation: the focus is on the page's heading.
    await expect.poll(() => focused(page)).toBe('heading: My manager is A.');

    // Edit: into the form's first field; Escape puts the focus back on Edit.
    await tabTo(page, 'button: Edit');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: Fact');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('form.fact-form').count()).toBe(0);
    expect(await focused(page)).toBe('button: Edit');

    // Cancel, reached by Tab, does the same.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: Fact');
    await tabTo(page, 'button: Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('form.fact-form').count()).toBe(0);
    expect(await focused(page)).toBe('button: Edit');

    // Close…: into its date field; Escape from there and Cancel put the focus back on Close….
    await tabTo(page, 'button: Close…');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: No longer true from');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('form.fact-form').count()).toBe(0);
    expect(await focused(page)).toBe('button: Close…');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: No longer true from');
    await tabTo(page, 'button: Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('form.fact-form').count()).toBe(0);
    expect(await focused(page)).toBe('button: Close…');

    // A refused save: the focus goes to the field main named, not to the page's body.
    await tabTo(page, 'button: Edit', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: Fact');
    await tabTo(page, 'textbox: True from');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('no such day');
    await tabTo(page, 'button: Save');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('form.fact-form [aria-invalid="true"]').count()).toBe(1);
    // The focus moves in an effect after the refusal's render: waited for, not read at once.
    await expect.poll(() => focused(page)).toBe('textbox: True from');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('button: Edit');

    // Save: the new version's page opens with its heading focused and the note said.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: Fact');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('My manager is A-san.');
    await tabTo(page, 'button: Save');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(page)).not.toBe(`#/facts/${first}`);
    await expect.poll(() => focused(page)).toBe('heading: My manager is A-san.');
    expect(await page.getByRole('status').textContent()).toMatch(/^Saved\./);

    // Close, with Enter in its field: the closed version's page, its heading focused.
    const edited = await hash(page);
    await tabTo(page, 'button: Close…');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('textbox: No longer true from');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(page)).not.toBe(edited);
    await expect.poll(() => focused(page)).toBe('heading: My manager is A-san.');
    expect(await page.getByRole('status').textContent()).toMatch(/^Closed: true /);
  });

  it('leaves Escape in the Forget dialog to the dialog: it cancels, the focus back on Forget…', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(idOf('works_at'))}`);
    await expect.poll(() => focused(page)).toBe('heading: Mei works at Sony.');
    await tabTo(page, 'button: Forget…');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    await dialog.waitFor();
    expect(await focused(page)).toBe('button: Cancel');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await focused(page)).toBe('button: Forget…');
    expect(ui().engine.memory.facts.get(idOf('works_at'))).toBeDefined();
  });

  it('adds no axe violation with the edit form open', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(idOf('works_at'))}`);
    await page.locator('.fact-header h1').waitFor();
    const before = await violations(page);
    await page.getByRole('button', { name: 'Edit' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('form.fact-form').waitFor();
    const after = await violations(page);
    expect(after.filter((v) => !before.includes(v))).toEqual([]);
    expect(after.filter((v) => /^(serious|critical):/.test(v))).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('focuses the heading of a fact opened from a Timeline bar, and not again when the same fact refreshes', async () => {
    const { page, engine } = ui();
    const sato = idOf('likes');
    await go(page, '#/timeline');
    const bar = page.locator(`g.tl-bar[data-fact-id="${sato}"]`);
    await bar.waitFor();
    await bar.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(page)).toBe(`#/facts/${sato}`);
    await expect.poll(() => focused(page)).toBe('heading: Sato likes tea.');

    // The user moves on; a change of this fact refreshes the page, which leaves the focus alone.
    await tabTo(page, 'link: Timeline', 'Shift+Tab');
    engine.memory.facts.edit(sato, { fact: 'Sato likes green tea.' });
    await page.locator('.notice-inline').waitFor();
    expect(await focused(page)).toBe('link: Timeline');
  });

  it('returns the focus to the row that was open, back from a fact opened from the Facts list (← Facts or Back)', async () => {
    const { page, engine } = ui();
    for (let i = 1; i <= 8; i++) {
      engine.memory.facts.observe([{ subject: `Person ${i}`, predicate: 'lives_in', object: `Town ${i}`, fact: `Person ${i} lives in Town ${i}.`, reference_time: `2026-08-0${i}T01:00:00Z`, cardinality: 'one' }]);
    }
    await go(page, '#/facts');
    const list = page.getByRole('list', { name: 'Facts' });
    await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(8);
    await list.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    const row = await list.getAttribute('aria-activedescendant');
    expect(row).toMatch(/^vl-/);
    const opened = await page.locator(`[id="${row}"] .fact-row-text`).textContent();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe(`heading: ${opened}`);

    // ← Facts, by keyboard: the list has the focus, on the row that was open.
    await tabTo(page, 'link: ← Facts', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => hash(page)).toBe('#/facts');
    await expect.poll(() => focused(page)).toBe('list: Facts');
    expect(await list.getAttribute('aria-activedescendant')).toBe(row);

    // The browser's Back likewise.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe(`heading: ${opened}`);
    await page.goBack();
    await expect.poll(() => hash(page)).toBe('#/facts');
    await expect.poll(() => focused(page)).toBe('list: Facts');
    expect(await list.getAttribute('aria-activedescendant')).toBe(row);
  });
});

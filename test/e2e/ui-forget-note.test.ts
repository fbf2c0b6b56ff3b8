/**
 * After "Forget for ever" the Facts screen says what was forgotten, in a status line with the focus
 * on it, not only the search of before with "0 facts … Nothing matches." and the focus on the body.
 * At 1280 and 900 px, light and dark.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const likes = ['tea', 'coffee', 'matcha', 'cocoa', 'oolong'];

function seed(engine: TemporaEngine): void {
  engine.memory.facts.observe(
    likes.map((object, i) => ({ subject: 'me', predicate: 'likes', object, fact: `I like ${object}.`, reference_time: `2026-0${i + 1}-01T03:00:00.000Z`, valid_at: `2026-0${i + 1}-01T00:00:00.000Z`, cardinality: 'many' as const })),
  );
  // A one-valued slot: Mei's start closed Kenji's value.
  engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Kenji Sato', fact: 'My manager is Kenji Sato.', reference_time: '2025-06-12T03:00:00.000Z', valid_at: '2025-06-12', cardinality: 'one' }]);
  engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Mei Suzuki', fact: 'My manager is Mei Suzuki.', reference_time: '2026-03-02T03:00:00.000Z', valid_at: '2026-03-02', cardinality: 'one' }]);
  // A value said with its own end, closed earlier by the next: forgetting the next brings its end back.
  engine.memory.facts.observe([{ subject: 'me', predicate: 'team', object: 'Blue team', fact: 'I am on the Blue team until the end of 2099.', reference_time: '2025-01-06T12:00:00+09:00', valid_at: '2025-01-06', invalid_at: '2099-12-31', cardinality: 'one' }]);
  engine.memory.facts.observe([{ subject: 'me', predicate: 'team', object: 'Red team', fact: 'I moved to the Red team.', reference_time: '2026-02-02T12:00:00+09:00', valid_at: '2026-02-02', cardinality: 'one' }]);
  // And one whose own end has passed: forgetting its closer brings it back as ended, not current.
  engine.memory.facts.observe([{ subject: 'me', predicate: 'desk', object: 'Desk 4', fact: 'My desk is Desk 4 until June 2026.', reference_time: '2025-01-06T12:00:00+09:00', valid_at: '2025-01-06', invalid_at: '2026-06', cardinality: 'one' }]);
  engine.memory.facts.observe([{ subject: 'me', predicate: 'desk', object: 'Desk 9', fact: 'My desk is Desk 9.', reference_time: '2026-02-02T12:00:00+09:00', valid_at: '2026-02-02', cardinality: 'one' }]);
}

/** Every axe violation on the page, as "impact: rule" lines. */
async function violations(page: Page): Promise<string[]> {
  return (await new AxeBuilder({ page }).setLegacyMode(true).analyze()).violations.map((v) => `${v.impact}: ${v.id}`);
}

describe.skipIf(CHROMIUM_MISSING !== null)('forgetting a fact', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', locale: 'en-GB', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'forget-note' });

  const cases = [
    [1280, 'light'],
    [1280, 'dark'],
    [900, 'light'],
    [900, 'dark'],
  ] as const;
  cases.forEach(([width, theme], i) => {
    it(`says on the Facts screen what was forgotten, with the focus on it (${width} px, ${theme})`, async () => {
      const { page, engine } = ui();
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: theme });
      const object = likes[i]!;
      // Found by a search, opened, forgotten: the search of before now matches nothing.
      await go(page, '#/facts');
      const search = page.getByPlaceholder('Search facts… (日本語もOK)');
      await search.fill(object);
      await search.press('Enter');
      const row = page.locator('.fact-list .fact-row').filter({ hasText: `I like ${object}.` }).first();
      await row.click();
      await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe(`I like ${object}.`);
      await page.getByRole('button', { name: 'Forget…' }).click();
      await page.getByRole('dialog', { name: 'Forget this fact?' }).getByRole('button', { name: 'Forget for ever' }).click();
      await expect.poll(() => page.locator('.facts-screen h1').textContent()).toBe('Facts');
      const note = page.locator('.facts-screen .note[role="status"]');
      await expect.poll(() => note.textContent()).toBe(`Forgotten: “I like ${object}.”`);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
      expect(engine.memory.facts.list().some((f) => f.object === object)).toBe(false);
      await screenshot(page, `forget-note-${width}-${theme}`);
      // Said once: the Facts screen opened again has no note.
      await go(page, '#/timeline');
      await go(page, '#/facts');
      await expect.poll(() => page.locator('.facts-screen h1').count()).toBe(1);
      expect(await page.locator('.facts-screen .note').count()).toBe(0);
    });
  });

  it('says which value comes back when the value that closed it is forgotten, and none when it closed nothing', async () => {
    const { page, engine } = ui();
    const mei = engine.memory.facts.list({ predicate: 'manager' })[0]!;
    expect(mei.object).toBe('Mei Suzuki');
    await go(page, `#/facts/${mei.id}`);
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe('My manager is Mei Suzuki.');
    await page.getByRole('button', { name: 'Forget…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    const back = dialog.locator('.forget-reopens');
    await expect.poll(() => back.textContent()).toBe('Kenji Sato will be current again (true since 12 Jun 2025), as if this had never been said.');
    for (const width of [1280, 900]) {
      for (const theme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: theme });
        await screenshot(page, `forget-reopens-${width}-${theme}`);
        expect(await violations(page)).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // As said: forgotten, Kenji Sato is the current value again.
    await dialog.getByRole('button', { name: 'Forget for ever' }).click();
    await expect.poll(() => page.locator('.facts-screen h1').count()).toBe(1);
    expect(engine.memory.facts.list({ predicate: 'manager' }).map((f) => [f.object, f.invalid_at])).toEqual([['Kenji Sato', null]]);
    // A value that closed nothing: no such sentence.
    const liked = engine.memory.facts.list({ predicate: 'likes' })[0]!;
    await go(page, `#/facts/${liked.id}`);
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe(liked.fact);
    await page.getByRole('button', { name: 'Forget…' }).click();
    await expect.poll(() => dialog.locator('p').first().textContent()).toContain('will be deleted everywhere');
    expect(await dialog.locator('.forget-reopens').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('says the end the value that comes back was said with: until it if ahead, ended if past', async () => {
    const { page } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    for (const [fact, words] of [
      ['I moved to the Red team.', 'Blue team will be current again (true since 6 Jan 2025, until 31 Dec 2099), as if this had never been said.'],
      ['My desk is Desk 9.', 'Desk 4 comes back, ended (true 6 Jan 2025 – June 2026), as if this had never been said.'],
    ] as const) {
      const { engine } = ui();
      const closer = engine.memory.facts.list().find((f) => f.fact === fact)!;
      await go(page, `#/facts/${closer.id}`);
      await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe(fact);
      await page.getByRole('button', { name: 'Forget…' }).click();
      await expect.poll(() => dialog.locator('.forget-reopens').textContent()).toBe(words);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
    // As said: Desk 9 forgotten, Desk 4 is back with its own end, which has passed.
    await page.getByRole('button', { name: 'Forget…' }).click();
    await dialog.getByRole('button', { name: 'Forget for ever' }).click();
    await expect.poll(() => page.locator('.facts-screen h1').count()).toBe(1);
    const { engine } = ui();
    expect(engine.memory.facts.list({ predicate: 'desk' }).map((f) => f.object)).toEqual([]);
    expect(engine.memory.facts.list({ predicate: 'desk', asOf: '2026-06-15T00:00:00.000Z' }).map((f) => f.object)).toEqual(['Desk 4']);
  });

  it('says how many of its messages went with it', async () => {
    const { page, engine } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    const fact = engine.memory.facts.list().find((f) => f.object === 'oolong')!;
    await go(page, `#/facts/${fact.id}`);
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe('I like oolong.');
    await page.getByRole('button', { name: 'Forget…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    await dialog.getByLabel('Also delete the messages it came from').check();
    await dialog.getByRole('button', { name: /^Forget it and 1 message$/ }).click();
    await expect.poll(() => page.locator('.facts-screen .note[role="status"]').textContent()).toBe('Forgotten: “I like oolong.”, with 1 message it came from');
  });
});

/**
 * History you can read, in Chromium against the bridge (real engine): each version on a fact's
 * page says what changed (field: before → after, in the user's zone, Asia/Tokyo) and why (your
 * edit; closed by another fact, linked; re-resolved because another fact was edited, linked).
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let aId = '';
/** The version of B the user edited: what re-resolved A. */
let bEdited = '';

function seed(engine: TemporaEngine): void {
  const memory = engine.memory;
  const observe = (object: string, at: string) =>
    memory.facts.observe([{ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: at, cardinality: 'one' }]);
  observe('A', '2026-09-01T01:00:00Z');
  aId = memory.facts.edit(memory.facts.list()[0]!.id, { fact: 'My manager is A-san.' }).id;
  observe('B', '2026-09-15T01:00:00Z');
  const b = memory.facts.list()[0]!;
  bEdited = b.id;
  memory.facts.edit(b.id, { valid_at: '2026-09-20T01:00:00.000Z' });
}

describe.skipIf(CHROMIUM_MISSING !== null)("a fact's versions say what changed and why", () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed });

  it('shows field: before → after and the reason for each of the four versions, with links', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(aId)}`);
    const versions = page.locator('.versions > li');
    await expect.poll(() => versions.count()).toBe(4);
    const why = await page.locator('.versions .version-reason').allTextContents();
    // The newest version first.
    expect(why).toEqual([
      'Why: re-resolved because another fact was edited',
      'Why: closed by another fact',
      'Why: your edit',
      'Why: observed (structured input) (“My manager is A.”)',
    ]);
    const changes = await page.locator('.versions > li').evaluateAll((items) => items.map((li) => [...li.querySelectorAll('.version-changes li')].map((c) => c.textContent)));
    expect(changes[2]).toEqual(['sentence: “My manager is A.” → “My manager is A-san.”']);
    // The times are the user's zone's: B's start was implied by its line (a day); the edit moved it
    // to 01:00 UTC on the 20th, 10:00 in Tokyo (an instant).
    expect(changes[1]).toEqual([expect.stringMatching(/^true until: still true → Sep 15, 2026$/)]);
    expect(changes[0]).toEqual([expect.stringMatching(/^true until: Sep 15, 2026 → Sep 20, 2026, 10:00$/)]);
    const link = page.locator('.versions .version-reason a').first();
    expect(await link.getAttribute('href')).toBe(`#/facts/${encodeURIComponent(bEdited)}`);
    await screenshot(page, 'fact-history');
    await link.click();
    await expect.poll(() => page.locator('.fact-header h1').textContent()).toBe('My manager is B.');
  });
});

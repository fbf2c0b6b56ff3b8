/**
 * An old (replaced) version of a fact, opened by its id, in Chromium over the bridge (real engine,
 * Asia/Tokyo): it never says "(still true)" — the manager closed on 30 Nov was open when this
 * version was replaced, and the banner says what the current version holds, with a link to it. The
 * current version says its own interval, and a fact held now and open still says "(still true)".
 */
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { toIsoUtc } from '../../shared/time';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let oldId = '';
let currentId = '';
let coffeeId = '';

function seed(engine: TemporaEngine): void {
  const facts = engine.memory.facts;
  facts.observe(
    [
      { subject: 'me', predicate: 'manager', object: 'Mei Suzuki', fact: 'My manager at Hoshi Labs is Mei Suzuki.', reference_time: '2025-04-02T10:00:00+09:00', cardinality: 'one' },
      { subject: 'me', predicate: 'likes', object: 'coffee', object_type: 'literal', fact: 'I like coffee.', reference_time: '2025-09-02T09:00:00+09:00' },
    ],
    { where: 'replaced-version test' },
  );
  oldId = facts.list().find((f) => f.object === 'Mei Suzuki')!.id;
  coffeeId = facts.list().find((f) => f.object === 'coffee')!.id;
  currentId = facts.close(oldId, toIsoUtc('2025-11-30T12:00:00+09:00'), 'day').id;
}

const trueRow = () => ui().page.locator('.fact-times dt:text-is("True") + dd');
const ui = useUi({ zone: 'Asia/Tokyo', env: { TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'replaced-version' });

describe.skipIf(CHROMIUM_MISSING !== null)('a replaced version of a fact says what it held, not "still true"', () => {
  it('the old version: open when it was replaced, and the current version’s interval in the banner', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(oldId)}`);
    await expect.poll(() => page.locator('.fact-header h1').textContent()).toBe('My manager at Hoshi Labs is Mei Suzuki.');
    await expect.poll(() => trueRow().textContent()).toBe('since Apr 2, 2025 (open when this version was replaced)');
    // Its times say nothing of now (Versions' "true until: still true → Nov 30" is what the close changed).
    expect(await page.locator('.fact-times').textContent()).not.toContain('still true');
    const banner = page.locator('.notice-inline');
    await expect.poll(() => banner.textContent()).toMatch(/^This version was replaced on .+; the current version says true Apr 2 – Nov 30, 2025\. Open the current version\.$/);
    await screenshot(page, 'fact-replaced-version');
    await banner.getByRole('link', { name: 'Open the current version' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#/facts/${encodeURIComponent(currentId)}`);
    await expect.poll(() => trueRow().textContent()).toBe('Apr 2 – Nov 30, 2025');
  });

  it('a fact held now and open is still true', async () => {
    const { page } = ui();
    await go(page, `#/facts/${encodeURIComponent(coffeeId)}`);
    await expect.poll(() => trueRow().textContent()).toBe('since Sep 2, 2025 (still true)');
  });
});

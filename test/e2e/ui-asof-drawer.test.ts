/**
 * The Timeline as a reviewer found it with a realistic memory: the as-of panel's count and its Show
 * more add up (never "150 facts are true now · showing 122" beside "Show 50 more"); a summary
 * bar's label reads over its change ticks (none of them shows through it); at 900 px Escape closes
 * the "As-of answers" drawer and gives the focus back to its button, and with the drawer open a
 * folded row's predicate is not cut to "k…" by its "Show all" button. At 1280 and 900 px, light and dark.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { CHROMIUM_MISSING } from './helpers/browser';
import { installContrast } from './helpers/contrast';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const DAY = 86_400_000;
const FIRST = Date.parse('2026-01-01T00:00:00Z');
/** The user's one-valued facts, one a day, all true now: more than the panel's first page. */
const OWN = 150;
/** People the user knows, all at once, long before: a row folded to a summary bar. */
const KNOWS = 20;

function seed(engine: TemporaEngine): void {
  const iso = (ms: number) => new Date(ms).toISOString();
  engine.memory.facts.observe([
    ...Array.from({ length: KNOWS }, (_, i) => ({
      subject: 'me',
      predicate: 'knows',
      object: `Friend ${i + 1}`,
      fact: `I know Friend ${i + 1}.`,
      reference_time: iso(FIRST - 400 * DAY + i * 3 * DAY),
      valid_at: iso(FIRST - 400 * DAY + i * 3 * DAY),
      cardinality: 'many' as const,
    })),
    // The newest facts' rows first (p_000 is the last fact): the rows in view are not in the panel's first page (oldest first).
    ...Array.from({ length: OWN }, (_, i) => ({
      subject: 'me',
      predicate: `p_${String(OWN - 1 - i).padStart(3, '0')}`,
      object: `value ${i}`,
      fact: `My p ${i} is value ${i}.`,
      reference_time: iso(FIRST + i * DAY),
      valid_at: iso(FIRST + i * DAY),
      cardinality: 'one' as const,
    })),
  ]);
}

const panel = (page: Page) => page.locator('.asof-panel');
const group = (page: Page) => page.locator('.tl-group[data-group="me"] .tl-group-toggle');

async function setGroupOpen(page: Page, open: boolean): Promise<void> {
  const toggle = group(page);
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-expanded')) !== String(open)) await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe(String(open));
}

/** Each summary label with the ticks whose boxes cross its box, and whether something opaque lies between them. */
async function labelsOverTicks(page: Page) {
  await installContrast(page);
  return page.evaluate(() => {
    const { rgb, over, ratio } = window.temporaContrast!;
    function contrast(text: Element, backing: Element | null): number {
      const panelColour = rgb(getComputedStyle(document.querySelector('.tl-chart')!).backgroundColor);
      // The worst case behind the label: its backing over a tick over the panel (or a tick alone, unbacked).
      const tick = text.parentElement!.querySelector('.tl-mark');
      const under = tick ? over(rgb(getComputedStyle(tick).fill), panelColour) : panelColour;
      const behind = backing ? over(rgb(getComputedStyle(backing).fill), under) : under;
      return ratio(over(rgb(getComputedStyle(text).fill), behind), behind);
    }
    return [...document.querySelectorAll('.tl-summary')].flatMap((summary) => {
      const text = summary.querySelector('text');
      if (!text) return [];
      const box = text.getBoundingClientRect();
      const crossing = [...summary.querySelectorAll('.tl-mark')].filter((tick) => {
        const t = tick.getBoundingClientRect();
        return t.right > box.left && t.left < box.right && t.bottom > box.top && t.top < box.bottom;
      });
      // What is drawn at the label's middle, on top of the ticks: the label's backing, if any.
      const backing = summary.querySelector('.tl-summary-label');
      const backed = backing !== null && (() => {
        const b = backing.getBoundingClientRect();
        return b.left <= box.left && b.right >= box.right && b.top <= box.top && b.bottom >= box.bottom;
      })();
      const afterTicks = backing !== null && crossing.every((tick) => tick.compareDocumentPosition(backing) & Node.DOCUMENT_POSITION_FOLLOWING);
      return [{ text: text.textContent, crossing: crossing.length, backed, afterTicks, ratio: contrast(text, backing) }];
    });
  });

}

describe.skipIf(CHROMIUM_MISSING !== null)('the Timeline’s as-of drawer, counts and summary labels', () => {
  const ui = useUi({ zone: 'UTC', locale: 'en-GB', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed, shotPrefix: 'asof-drawer' });

  it('says how many more Show more brings: no more than are left to show', async () => {
    const { page } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    await go(page, '#/timeline');
    const count = page.getByTestId('asof-count');
    const total = OWN + KNOWS;
    // The user's rows in view bring facts the panel's first page does not hold: it lists more than 100.
    await setGroupOpen(page, true);
    const fromRows = async () => Number((await count.textContent())?.match(/showing the first 100 and (\d+) from the chart’s rows$/)?.[1] ?? 0);
    await expect.poll(fromRows).toBeGreaterThan(0);
    const shown = 100 + (await fromRows());
    expect(await panel(page).locator('.asof-more').textContent()).toBe(`Show ${total - shown} more`);
    // Wide, the folded row's button says its words.
    expect(await page.locator('.tl-row[data-row="me · knows"] .tl-fold-toggle').innerText()).toBe(`▸ Show all ${KNOWS}`);
    await screenshot(page, 'asof-drawer-count');
    await panel(page).locator('.asof-more').click();
    await expect.poll(() => count.textContent()).toBe(`${total} facts are true now`);
    expect(await panel(page).locator('.asof-more').count()).toBe(0);
    await setGroupOpen(page, false);
  });

  for (const width of [1280, 900]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`keeps a summary bar’s label readable over its change ticks (${width} px, ${theme})`, async () => {
        const { page } = ui();
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme: theme });
        await go(page, '#/timeline');
        await setGroupOpen(page, false);
        // The collapsed group's bar ticks where the user's facts begin: many under its label.
        await expect.poll(() => page.locator('.tl-group[data-group="me"] .tl-mark').count()).toBeGreaterThan(10);
        const labels = await labelsOverTicks(page);
        expect(labels.length).toBeGreaterThan(0);
        for (const label of labels) {
          // Ticks it crosses are drawn under its backing, which covers it; the label reads at 4.5:1 over it.
          if (label.crossing > 0) expect(label, `${label.text}`).toMatchObject({ backed: true, afterTicks: true });
          expect(label.ratio, `${label.text}`).toBeGreaterThanOrEqual(4.5);
        }
        expect(labels.some((l) => l.crossing > 0)).toBe(true);
        await screenshot(page, `asof-drawer-summary-${width}-${theme}`);
      });
    }
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`at 900 px Escape closes the as-of drawer, the focus back on its button; a folded row keeps its predicate (${theme})`, async () => {
      const { page } = ui();
      await page.setViewportSize({ width: 900, height: 800 });
      await page.emulateMedia({ colorScheme: theme });
      await go(page, '#/timeline');
      const toggle = page.locator('.asof-panel-toggle');
      await toggle.waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      // Opened and gone into: Escape from inside closes it and gives the focus back.
      await toggle.click();
      await expect.poll(() => panel(page).count()).toBe(1);
      await panel(page).locator('.virtual-list').focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => panel(page).count()).toBe(0);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => document.activeElement?.classList.contains('asof-panel-toggle'))).toBe(true);
      // Escape on the button itself, the drawer open, closes it too.
      await toggle.press('Enter');
      await expect.poll(() => panel(page).count()).toBe(1);
      await page.keyboard.press('Escape');
      await expect.poll(() => panel(page).count()).toBe(0);

      // The drawer open, the user's group open: the folded row's predicate shows whole beside its button.
      await toggle.click();
      await setGroupOpen(page, true);
      const knows = page.locator('.tl-row[data-row="me · knows"]');
      await expect.poll(() => knows.getAttribute('class')).toContain('folded');
      const fold = knows.getByRole('button', { name: `▸ Show all ${KNOWS}` });
      expect(await fold.isVisible()).toBe(true);
      // Narrow, it shows "▸ 20", its words kept for screen readers only.
      expect((await fold.locator('.tl-fold-words').boundingBox())!.width).toBeLessThanOrEqual(1);
      const predicate = knows.locator('.tl-predicate');
      expect(await predicate.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const [p, b] = [(await predicate.boundingBox())!, (await fold.boundingBox())!];
      expect(p.x + p.width).toBeLessThanOrEqual(b.x);
      await screenshot(page, `asof-drawer-900-${theme}`);
      await setGroupOpen(page, false);
      await toggle.click();
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 800 });
    });
  }
});

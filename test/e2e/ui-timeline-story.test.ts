/**
 * Issue #25 item 2, "a life at a glance": the Timeline opens on the user's story. A memory of ~900
 * facts about 45 people three to four years ago and ~20 about the user over the last twenty months
 * (test/fixtures/own-story-later.ts), in Chromium against the bridge: the first view and Fit hold
 * the user's facts and now, and the as-of label covers no date on the axis; the groups come in
 * natural order (Person 2 before Person 10), the user's first and open; summary bars — a collapsed group, a
 * folded many-valued row — tick where their facts begin, end and change; a legend explains every
 * style; bar labels read at 4.5:1 or more in light and dark, and are cut only when they do not fit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ownStoryLater, type OwnStoryLater } from '../fixtures/own-story-later';
import { CHROMIUM_MISSING } from './helpers/browser';
import { installContrast } from './helpers/contrast';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let fixture: OwnStoryLater;
const DAY = 86_400_000;

/** The axis's visible range and where it is on the page. */
async function axisOf(page: Page) {
  const axis = page.locator('.tl-axis');
  const box = (await axis.boundingBox())!;
  return { from: Number(await axis.getAttribute('data-from')), to: Number(await axis.getAttribute('data-to')), left: box.x, width: box.width };
}

/** The as-of label covers none of the axis's date labels (it has a lane of its own: boxes, not only columns). */
async function expectLabelClear(page: Page) {
  const label = (await page.locator('.tl-cursor-label').boundingBox())!;
  const ticks = await page.locator('.tl-axis .tick text').evaluateAll((els) => els.map((el) => ({ text: el.textContent, ...(el.getBoundingClientRect().toJSON() as DOMRect) })));
  expect(ticks.length).toBeGreaterThan(2);
  expect(ticks.filter((t) => t.right > label.x && t.x < label.x + label.width && t.bottom > label.y && t.y < label.y + label.height)).toEqual([]);
}

/** Every bar label in view with its contrast against what is behind it (its bar, or its halo), and its opacity. */
async function labelContrasts(page: Page) {
  await installContrast(page);
  return page.evaluate(() => {
    const { rgb, over, ratio } = window.temporaContrast!;
    const panel = rgb(getComputedStyle(document.querySelector('.tl-chart')!).backgroundColor);
    const opacity = (el: Element | null): number => (el && el.tagName !== 'svg' ? Number(getComputedStyle(el).opacity) * opacity(el.parentElement) : 1);
    return [...document.querySelectorAll('.tl-body g.tl-bar text, .tl-body .tl-summary text')].map((text) => {
      const style = getComputedStyle(text);
      const fill = over(rgb(style.fill), panel);
      const halo = style.paintOrder.startsWith('stroke') && style.stroke !== 'none' ? over(rgb(style.stroke), panel) : null;
      const behind = halo ?? over(rgb(getComputedStyle(text.parentElement!.querySelector('rect')!).fill), panel);
      return { text: text.textContent, ratio: ratio(fill, behind), opacity: opacity(text) };
    });
  });
}

describe.skipIf(CHROMIUM_MISSING !== null)('the timeline opens on the user’s story', () => {
  const ui = useUi(() => {
    fixture = ownStoryLater();
    return { engine: { startWorker: false }, seed: (engine) => void engine.memory.facts.observe(fixture.observations, { where: 'a life' }) };
  });

  it('first shows the user’s facts and now with the bulk, the as-of label over no date, groups in natural order', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(12);
    // The user's first, then the people in natural order (Person 2 before Person 10).
    const groups = await page.locator('.tl-group').evaluateAll((els) => els.slice(0, 13).map((el) => el.getAttribute('data-group')));
    expect(groups).toEqual(['me', ...Array.from({ length: 12 }, (_, i) => `Person ${i + 1}`)]);
    // The first view holds the user's facts and now, and the bulk of the memory years before.
    const now = Date.now();
    await expect.poll(async () => (await axisOf(page)).from).toBeLessThanOrEqual(fixture.ownFrom);
    const axis = await axisOf(page);
    expect(axis.to).toBeGreaterThanOrEqual(now - 60_000);
    expect(axis.from).toBeLessThanOrEqual(fixture.bulkFrom + 30 * DAY);
    // The as-of label (today, at the right) covers no date label of the axis.
    await expectLabelClear(page);
    await screenshot(page, 'timeline-story', { docs: true });
    // Zoomed in and moved to the bulk (the overview strip's left end), Fit brings the user's story and now back.
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    const strip = (await page.locator('.tl-overview').boundingBox())!;
    await page.mouse.click(strip.x + 10, strip.y + strip.height / 2);
    await expect.poll(async () => (await axisOf(page)).to).toBeLessThan(fixture.ownFrom);
    // Today is off screen: its label stands at the right edge, and still covers no date.
    expect(await page.locator('.tl-cursor-handle').getAttribute('class')).toContain('offscreen');
    await expectLabelClear(page);
    await page.getByRole('button', { name: 'Fit' }).click();
    await expect.poll(async () => (await axisOf(page)).from).toBe(axis.from);
    expect((await axisOf(page)).to).toBe(axis.to);
  });

  it('ticks a collapsed group’s and a folded row’s summary bar where their facts begin, end and change', async () => {
    const { page } = ui();
    const axis = await axisOf(page);
    const xOf = (ms: number) => axis.left + ((ms - axis.from) / (axis.to - axis.from)) * axis.width;
    const marksOf = (selector: string) =>
      page.locator(selector).evaluateAll((els) => els.map((el) => ({ at: Number(el.getAttribute('data-at')), n: Number(el.getAttribute('data-n')), box: el.getBoundingClientRect().toJSON() as DOMRect })));
    // The user's group starts open (their rows in the first view); closed, it is one summary bar.
    const own = page.locator('.tl-group[data-group="me"] .tl-group-toggle');
    expect(await own.getAttribute('aria-expanded')).toBe('true');
    await own.click();
    await expect.poll(() => own.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.locator('.tl-group[data-group="me"] .tl-mark').count()).toBeGreaterThan(5);
    const me = await marksOf('.tl-group[data-group="me"] .tl-mark');
    expect(me.length).toBeGreaterThan(5);
    // Every start and change of the user's facts has a tick where it happened (within a span: 1/64 of the group's range),
    const span = (Date.now() - fixture.ownFrom) / 64;
    for (const at of fixture.ownStarts) {
      const tick = me.find((m) => Math.abs(m.at - at) <= span);
      expect(tick, new Date(at).toISOString()).toBeDefined();
      // drawn at that time on the axis.
      expect(Math.abs(tick!.box.x + tick!.box.width / 2 - xOf(at))).toBeLessThanOrEqual(span / ((axis.to - axis.from) / axis.width) + 3);
    }
    // and no tick stands where nothing happened; a manager change (an end and a start) counts two.
    for (const m of me) expect(fixture.ownStarts.some((at) => Math.abs(m.at - at) <= span)).toBe(true);
    expect(me.find((m) => Math.abs(m.at - fixture.managerChanges[1]!) <= span)!.n).toBeGreaterThanOrEqual(2);
    // A person's collapsed group ticks too.
    expect(await page.locator('.tl-group[data-group="Person 1"] .tl-mark').count()).toBeGreaterThan(3);
    // The user's group opened again: its 12 things liked at once are one folded bar, ticked at each start.
    await own.click();
    const likes = page.locator('.tl-row[data-row="me · likes"]');
    await expect.poll(() => likes.getAttribute('class')).toContain('folded');
    const liked = await marksOf('.tl-row[data-row="me · likes"] .tl-mark');
    expect(liked.reduce((sum, m) => sum + m.n, 0)).toBe(12);
    await screenshot(page, 'timeline-story-marks');
  });

  it('explains every bar style in a legend', async () => {
    const { page } = ui();
    const legend = page.getByTestId('timeline-legend');
    await legend.locator('summary').click();
    const styles = await legend.locator('li').evaluateAll((els) => els.map((el) => el.getAttribute('data-style')));
    expect(styles).toEqual(['open', 'ends', 'closed', 'asof', 'not-asof', 'summary', 'link', 'elsewhere', 'cursor']);
    for (const item of await legend.locator('li').all()) expect((await item.textContent())!.length).toBeGreaterThan(10);
    await screenshot(page, 'timeline-legend');
    await legend.locator('summary').click();
    await expect.poll(() => legend.locator('li').first().isVisible()).toBe(false);
  });

  it('closes the legend on an Escape pressed as soon as it opened (before its toggle event)', async () => {
    const { page } = ui();
    const legend = page.getByTestId('timeline-legend');
    if (await legend.evaluate((el) => (el as HTMLDetailsElement).open)) await legend.locator('summary').click();
    await expect.poll(() => legend.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    // Opened and Escape pressed in one task: the panel's toggle event, a task later, has not come yet.
    const open = await legend.evaluate((el) => {
      const details = el as HTMLDetailsElement;
      details.querySelector('summary')!.focus();
      details.open = true;
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
      return details.open;
    });
    expect(open).toBe(false);
  });

  it('closes the legend with Escape (focus back on its button) and with a click elsewhere', async () => {
    const { page } = ui();
    const legend = page.getByTestId('timeline-legend');
    const summary = legend.locator('summary');
    const isOpen = () => legend.evaluate((el) => (el as HTMLDetailsElement).open);
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(isOpen).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await summary.click();
    await expect.poll(isOpen).toBe(true);
    await page.locator('.timeline-screen .screen-header').click();
    await expect.poll(isOpen).toBe(false);
    // A click inside the panel keeps it open.
    await summary.click();
    await legend.locator('li').first().click();
    expect(await isOpen()).toBe(true);
    await summary.click();
  });

  it('names the legend’s marks by what tells them apart in light and dark, not by a colour they share', async () => {
    const { page } = ui();
    const legend = page.getByTestId('timeline-legend');
    await legend.locator('summary').click();
    const colourWords = /\b(red|orange|blue|green|yellow|purple)\b/i;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const stroke = (style: string, mark: string) => legend.locator(`li[data-style="${style}"] ${mark}`).evaluate((el) => getComputedStyle(el).stroke);
      const hook = await stroke('link', '.tl-link');
      const cursor = await stroke('cursor', '.tl-legend-cursor');
      // One colour for both marks: the words cannot tell them apart by colour.
      if (hook === cursor) {
        expect(await legend.locator('li[data-style="link"]').textContent()).not.toMatch(colourWords);
        expect(await legend.locator('li[data-style="cursor"]').textContent()).not.toMatch(colourWords);
      }
      await screenshot(page, `timeline-legend-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await legend.locator('summary').click();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`labels bars at 4.5:1 or more and cuts them only when they do not fit (${scheme}, 1280 px)`, async () => {
      const { page } = ui();
      await page.emulateMedia({ colorScheme: scheme });
      try {
        // Open a person's group and zoom into their year (around an as-of date there): closed and open
        // bars, in and out of the as-of date.
        const person = page.locator('.tl-group[data-group="Person 2"] .tl-group-toggle');
        if ((await person.getAttribute('aria-expanded')) === 'false') await person.click();
        await expect.poll(() => page.locator('.tl-row[data-row^="Person 2 · "]').count()).toBe(4);
        const axis = await axisOf(page);
        await page.locator('.tl-axis').click({ position: { x: ((fixture.bulkFrom + 120 * DAY - axis.from) / (axis.to - axis.from)) * axis.width, y: 10 } });
        await page.locator('.tl-chart').focus();
        for (let i = 0; i < 3; i++) await page.keyboard.press('+');
        await expect.poll(() => page.locator('.tl-row[data-row^="Person 2 · "] g.tl-bar text').count()).toBeGreaterThan(3);
        expect(await page.locator('g.tl-bar.not-asof text').count()).toBeGreaterThan(0);
        expect(await page.locator('g.tl-bar.closed text').count()).toBeGreaterThan(0);
        const labels = await labelContrasts(page);
        expect(labels.filter((l) => l.opacity < 1)).toEqual([]);
        expect(labels.filter((l) => l.ratio < 4.5)).toEqual([]);
        // A label is cut only when its whole text does not fit in the visible part of its bar.
        const cut = await page.locator('.tl-row g.tl-bar').evaluateAll((bars) => {
          const chart = bars[0]!.closest('svg')!.getBoundingClientRect();
          const canvas = document.createElement('canvas').getContext('2d')!;
          return bars.flatMap((bar) => {
            const text = bar.querySelector('text');
            if (!text) return [];
            canvas.font = `${getComputedStyle(text).fontWeight} ${getComputedStyle(text).fontSize} ${getComputedStyle(text).fontFamily}`;
            const rect = bar.querySelector('rect')!.getBoundingClientRect();
            const room = Math.min(rect.right, chart.right) - Math.max(rect.left, chart.left) - 10;
            const whole = bar.getAttribute('aria-label')!.split(': ')[0]!;
            return [{ shown: text.textContent, whole, room, width: text.getComputedTextLength(), wholeWidth: canvas.measureText(whole).width }];
          });
        });
        expect(cut.length).toBeGreaterThan(3);
        expect(cut.filter((c) => c.width > c.room + 1)).toEqual([]);
        expect(cut.filter((c) => c.shown !== c.whole && c.wholeWidth <= c.room)).toEqual([]);
        await page.locator('.tl-chart').blur();
        await screenshot(page, `timeline-labels-${scheme}`);
        await page.getByRole('button', { name: 'Fit' }).click();
        await person.click();
        await expect.poll(() => page.locator('.tl-row[data-row^="Person 2 · "]').count()).toBe(0);
      } finally {
        await page.emulateMedia({ colorScheme: null });
      }
    });
  }
});


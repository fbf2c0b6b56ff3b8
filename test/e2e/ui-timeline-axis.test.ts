/**
 * The user-trial's Timeline faults (Tokyo, ja-JP, 226 facts over 2021–2026), in Chromium against the
 * bridge. The time axis always says where the view is: at 1400, 1100 and 900 px, with the as-of
 * answers drawer open or not, fitted or zoomed in to months and weeks, it shows at least two date
 * labels, names every year boundary in view (and the year, zoomed in to weeks), and the as-of label
 * covers none of them. Panning (wheel, drag, keys) stops where the view would leave the memory's
 * range (its first fact to now, with a margin), in the future and the past, and the view remembered
 * when the Timeline is opened again obeys the same limit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { trialMemory } from './helpers/timeline';
import { go, useUi } from './helpers/ui-session';

const memory = trialMemory();
const DAY = 86_400_000;
const YEAR = 365 * DAY;
/** 1 January of `year`, 00:00 in Tokyo. */
const newYear = (year: number) => Date.UTC(year, 0, 1) - 9 * 3_600_000;
const yearOf = (ms: number) => new Date(ms + 9 * 3_600_000).getUTCFullYear();

interface Box {
  x: number;
  y: number;
  right: number;
  bottom: number;
}
const overlap = (a: Box, b: Box) => a.right > b.x && a.x < b.right && a.bottom > b.y && a.y < b.bottom;

/** The axis's range, where it is, the as-of label's box and the date labels drawn inside the axis. */
async function axisOf(page: Page) {
  const axis = page.locator('.tl-axis');
  const box = (await axis.boundingBox())!;
  const label = (await page.locator('.tl-cursor-label').boundingBox())!;
  const labels = await page.locator('.tl-axis .tick text').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { text: el.textContent ?? '', x: r.x, right: r.right, y: r.y, bottom: r.bottom };
    }),
  );
  const shown = labels.filter((t) => t.x >= box.x - 1 && t.right <= box.x + box.width + 1).sort((a, b) => a.x - b.x);
  return {
    from: Number(await axis.getAttribute('data-from')),
    to: Number(await axis.getAttribute('data-to')),
    box,
    label: { x: label.x, y: label.y, right: label.x + label.width, bottom: label.y + label.height },
    shown,
  };
}

/** At least two date labels, none under the as-of label or another label, every year boundary in view named. */
async function expectReadableAxis(page: Page, what: string) {
  const { from, to, box, label, shown } = await axisOf(page);
  const texts = shown.map((t) => t.text);
  expect(shown.length, `${what}: ${texts.join(' ')}`).toBeGreaterThanOrEqual(2);
  expect(shown.filter((t) => overlap(t, label)).map((t) => t.text), what).toEqual([]);
  for (let i = 1; i < shown.length; i++) expect(shown[i]!.x, `${what}: ${texts.join(' ')}`).toBeGreaterThanOrEqual(shown[i - 1]!.right);
  const px = (ms: number) => ((ms - from) / (to - from)) * box.width;
  for (let year = yearOf(from) + 1; newYear(year) <= to; year++) {
    // (A boundary in the last 60 px has no room for its year after it: the tick before names its own.)
    if (px(newYear(year)) > box.width - 60) continue;
    expect(texts.some((t) => t.includes(String(year))), `${what}: ${year} in ${texts.join(' ')}`).toBe(true);
  }
  // Where the view is: its year is named somewhere on the axis, however far in.
  const years = Array.from({ length: yearOf(to) - yearOf(from) + 1 }, (_, i) => String(yearOf(from) + i));
  expect(texts.some((t) => years.some((year) => t.includes(year))), `${what}: ${texts.join(' ')}`).toBe(true);
}

/** The axis at Fit, then zoomed in around the cursor 4, 8 and 12 steps (years, months, weeks). */
async function expectReadableZooms(page: Page, what: string) {
  await page.getByRole('button', { name: 'Fit' }).click();
  await expectReadableAxis(page, `${what}, fitted`);
  await page.locator('.tl-chart').focus();
  for (const steps of [4, 8, 12]) {
    const span = (await axisOf(page)).to - (await axisOf(page)).from;
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await expect.poll(async () => (await axisOf(page)).to - (await axisOf(page)).from).toBeLessThan(span * 0.5);
    await expectReadableAxis(page, `${what}, zoomed in ${steps}×`);
    if (steps === 8) await screenshot(page, `timeline-axis-${what.replace(/\W+/g, '-')}-months`);
  }
  await page.getByRole('button', { name: 'Fit' }).click();
}

describe.skipIf(CHROMIUM_MISSING !== null)('the timeline’s axis and panning, as found in the user trial', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, locale: 'ja-JP', seed: (engine) => void engine.memory.facts.observe(memory.observations, { where: 'a trial' }), shotPrefix: 'timeline-axis' });

  it('names at least two dates and every year in view, at 1400, 1100 and 900 px, drawer open or not', async () => {
    const { page } = ui();
    await page.setViewportSize({ width: 1400, height: 900 });
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
    await expect.poll(async () => (await axisOf(page)).from).toBeLessThan(memory.first);
    await expectReadableAxis(page, '1400 px, first view');
    await screenshot(page, 'timeline-axis-1400');
    await expectReadableZooms(page, '1400 px');
    await page.setViewportSize({ width: 1100, height: 900 });
    await expectReadableZooms(page, '1100 px');
    await page.setViewportSize({ width: 900, height: 900 });
    const drawer = page.getByRole('button', { name: '◂ As-of answers' });
    await drawer.click();
    await expect.poll(() => page.locator('.asof-panel').count()).toBe(1);
    await expectReadableAxis(page, '900 px, drawer open');
    await screenshot(page, 'timeline-axis-900-drawer');
    await expectReadableZooms(page, '900 px, drawer open');
    await page.getByRole('button', { name: 'Hide answers ▸' }).click();
    await expectReadableZooms(page, '900 px');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('pans no further than the memory’s range with a margin, by wheel, drag and keys, and reopens there', async () => {
    const { page } = ui();
    await page.setViewportSize({ width: 1400, height: 900 });
    const latest = Math.max(Date.now(), memory.last);
    // The view always overlaps [first fact − a year, max(now, last end) + a year].
    const [lo, hi] = [memory.first - YEAR, latest + YEAR];
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    const body = (await page.locator('.tl-body').boundingBox())!;
    await page.mouse.move(body.x + body.width * 0.6, body.y + 40);
    // Ten flicks of a horizontal wheel into the future.
    const before = (await axisOf(page)).from;
    for (let i = 0; i < 10; i++) await page.mouse.wheel(2000, 0);
    // Zoomed in around now, the view's end is past `latest` already: the wheel's pan is its start moving.
    await expect.poll(async () => (await axisOf(page)).from).toBeGreaterThan(before);
    await expect.poll(async () => (await axisOf(page)).to).toBeGreaterThan(latest);
    expect((await axisOf(page)).from).toBeLessThan(hi);
    await screenshot(page, 'timeline-pan-future');
    // Keys and drags further on change nothing.
    const stopped = await axisOf(page);
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 3; i++) {
      await page.mouse.move(body.x + body.width * 0.9, body.y + body.height - 20);
      await page.mouse.down();
      await page.mouse.move(body.x + 260, body.y + body.height - 20, { steps: 5 });
      await page.mouse.up();
    }
    expect((await axisOf(page)).from).toBeLessThan(hi);
    expect((await axisOf(page)).from).toBeCloseTo(stopped.from, -5);
    // Opened again, the Timeline shows the same view, within the range.
    await go(page, '#/facts');
    await page.locator('.facts-screen').waitFor();
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
    expect((await axisOf(page)).from).toBeLessThan(hi);
    // And the far past: keys, the wheel and drags stop before the view leaves the range.
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowLeft');
    await page.mouse.move(body.x + body.width * 0.6, body.y + 40);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(-2000, 0);
    for (let i = 0; i < 3; i++) {
      await page.mouse.move(body.x + 260, body.y + body.height - 20);
      await page.mouse.down();
      await page.mouse.move(body.x + body.width * 0.9, body.y + body.height - 20, { steps: 5 });
      await page.mouse.up();
    }
    await expect.poll(async () => (await axisOf(page)).from).toBeLessThan(memory.first);
    expect((await axisOf(page)).to).toBeGreaterThan(lo);
    await screenshot(page, 'timeline-pan-past');
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('zooms out no further than the memory’s range with a margin, by keys, button and wheel', async () => {
    const { page } = ui();
    const latest = Math.max(Date.now(), memory.last);
    const [lo, hi] = [memory.first - YEAR, latest + YEAR];
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
    const within = async () => {
      const { from, to } = await axisOf(page);
      return from >= lo && to <= hi;
    };
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.locator('.tl-chart').focus();
    for (let i = 0; i < 30; i++) await page.keyboard.press('-');
    await expect.poll(async () => (await axisOf(page)).to - (await axisOf(page)).from).toBeGreaterThan(latest - memory.first);
    expect(await within()).toBe(true);
    const widest = await axisOf(page);
    for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Zoom out' }).click();
    const body = (await page.locator('.tl-body').boundingBox())!;
    await page.mouse.move(body.x + body.width * 0.2, body.y + 40);
    await page.keyboard.down('Control');
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 600);
    await page.keyboard.up('Control');
    expect(await within()).toBe(true);
    expect((await axisOf(page)).from).toBe(widest.from);
    // One step in from there zooms in at once.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await axisOf(page)).to - (await axisOf(page)).from).toBeLessThan(widest.to - widest.from);
    await page.getByRole('button', { name: 'Fit' }).click();
  });
});

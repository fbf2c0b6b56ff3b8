/**
 * A user-trial fault: zoomed in three times and panned later eight times (the realistic memory,
 * test/fixtures/a-life.ts, in Tokyo), the axis read "Feb 2027", then "Apr 2027" just right of the
 * March gridline and no "Mar 2027": the April label, pulled back to end inside the axis, stood over
 * March. In Chromium against the bridge, each date label stands over its own period — it starts at
 * its own tick and its centre lies before the next tick — a month's label over that month (in
 * Tokyo), in the trial's view and at every place a wheel pans a months axis and a years axis to.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aLife } from '../fixtures/a-life';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const life = aLife();

/**
 * Each date label on the axis that does not stand over its own period: one that starts left of its
 * tick, whose centre lies past the next tick, or (a "Mar 2027" label on a months axis) whose centre
 * is outside that month in Tokyo. Also the labels read, for the messages.
 */
async function misplacedLabels(page: Page): Promise<{ texts: string; wrong: string[] }> {
  return page.locator('.tl-axis').evaluate((axis) => {
    const from = Number(axis.getAttribute('data-from'));
    const to = Number(axis.getAttribute('data-to'));
    const svg = axis.querySelector('svg')!;
    const left = svg.getBoundingClientRect().left;
    const width = svg.getBoundingClientRect().width;
    const px = (ms: number) => ((ms - from) / (to - from)) * width;
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const TOKYO = 9 * 3_600_000;
    const ticks = [...axis.querySelectorAll('g.tick')].map((g) => ({ x: Number(g.querySelector('line')!.getAttribute('x1')), text: g.querySelector('text') }));
    // A months axis (ticks a month apart): "Mar 2027" names March. On a coarser axis it names a quarter or half year.
    const monthly = ticks.length > 1 && ticks.every((t, i) => i === 0 || ((t.x - ticks[i - 1]!.x) / width) * (to - from) < 32 * 86_400_000);
    const wrong: string[] = [];
    const read: string[] = [];
    ticks.forEach(({ x, text }, i) => {
      if (!text) return;
      const box = text.getBoundingClientRect();
      const [start, end] = [box.left - left, box.right - left];
      const centre = (start + end) / 2;
      const said = text.textContent ?? '';
      read.push(`${said}@${start.toFixed(1)}`);
      if (start < x - 0.5) wrong.push(`${said} starts at ${start.toFixed(1)}, left of its tick at ${x.toFixed(1)}`);
      const next = ticks[i + 1];
      if (next && centre > next.x) wrong.push(`${said} has its centre at ${centre.toFixed(1)}, past the next tick at ${next.x.toFixed(1)}`);
      if (end > width + 0.5) wrong.push(`${said} ends at ${end.toFixed(1)}, past the axis's end at ${width.toFixed(1)}`);
      const month = /^([A-Z][a-z]{2})[a-z]? (\d{4})$/.exec(said);
      if (monthly && month && months.includes(month[1]!)) {
        const m = months.indexOf(month[1]!);
        const y = Number(month[2]);
        const [a, b] = [px(Date.UTC(y, m, 1) - TOKYO), px(Date.UTC(y, m + 1, 1) - TOKYO)];
        if (centre < a || centre > b) wrong.push(`${said} has its centre at ${centre.toFixed(1)}, outside its month [${a.toFixed(1)}, ${b.toFixed(1)}]`);
      }
    });
    return { texts: read.join(', '), wrong };
  });
}

const fromOf = async (page: Page) => Number(await page.locator('.tl-axis').getAttribute('data-from'));

/**
 * Pans the view with a horizontal wheel, `step` px at a time, until it stops (the memory's range),
 * checking the axis's labels at each place. Returns every misplaced label with the view it was in.
 */
async function sweep(page: Page, step: number, what: string): Promise<string[]> {
  const body = (await page.locator('.tl-body').boundingBox())!;
  await page.mouse.move(body.x + body.width * 0.6, body.y + 40);
  const wrong: string[] = [];
  for (let i = 0; i < 200; i++) {
    const before = await fromOf(page);
    await page.mouse.wheel(step, 0);
    const moved = await expect
      .poll(() => fromOf(page), { timeout: 1_500 })
      .not.toBe(before)
      .then(() => true)
      .catch(() => false);
    if (!moved) break;
    const found = await misplacedLabels(page);
    const at = new Date(await fromOf(page)).toISOString();
    wrong.push(...found.wrong.map((w) => `${what}, view from ${at}: ${w} (${found.texts})`));
  }
  return wrong;
}

describe.skipIf(CHROMIUM_MISSING !== null)('the timeline axis names each period over that period', () => {
  const ui = useUi({
    zone: 'Asia/Tokyo',
    env: { LANCEDB_LOG: 'error', TZ: 'Asia/Tokyo' },
    engine: { startWorker: false },
    seed: (engine) => void engine.memory.facts.observe(life.observations, { where: 'two years of conversations' }),
    shotPrefix: 'timeline-axis-labels',
  });

  it('labels each month over its own month after Zoom in ×3 and Pan later ×8 (the trial’s steps)', async () => {
    const { page } = ui();
    await page.setViewportSize({ width: 1280, height: 800 });
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-group').count()).toBeGreaterThan(5);
    await page.getByRole('button', { name: 'Fit' }).click();
    const wrong: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await fromOf(page);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(() => fromOf(page)).not.toBe(before);
    }
    for (let i = 0; i < 8; i++) {
      const before = await fromOf(page);
      await page.getByRole('button', { name: 'Pan later' }).click();
      // (At the memory's end the view stops moving.)
      await expect
        .poll(() => fromOf(page), { timeout: 1_500 })
        .not.toBe(before)
        .catch(() => undefined);
      const found = await misplacedLabels(page);
      wrong.push(...found.wrong.map((w) => `pan later ×${i + 1}: ${w} (${found.texts})`));
    }
    const last = await misplacedLabels(page);
    // Months are named on this axis (the trial's view), and more than two of them.
    expect(last.texts.match(/[A-Z][a-z]{2} \d{4}/g)?.length ?? 0, last.texts).toBeGreaterThan(2);
    await screenshot(page, 'timeline-axis-labels-panned-later');
    expect(wrong).toEqual([]);
  });

  it('keeps every label over its own period wherever the wheel pans a months axis and a years axis', async () => {
    const { page } = ui();
    // Months (zoomed in three times), swept from the future end back to the past in 23 px steps,
    await page.getByRole('button', { name: 'Fit' }).click();
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    const wrong = await sweep(page, -23, 'months');
    // then half years and years (Fit), back and forth in 11 px steps.
    await page.getByRole('button', { name: 'Fit' }).click();
    wrong.push(...(await sweep(page, -11, 'years, earlier')), ...(await sweep(page, 11, 'years, later')));
    expect(wrong).toEqual([]);
  });
});

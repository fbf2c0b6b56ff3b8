/**
 * What `npm run bench:ui` measures on a page, timed inside the page (performance.now and
 * requestAnimationFrame: no round trips to Node in the figures):
 *   - navigation to first painted content: the hash changes, then the frame after the screen's
 *     content selector exists;
 *   - frame times while the as-of cursor is dragged across the timeline;
 *   - a search keystroke (Enter) to the frame that shows the results;
 *   - bytes over the bridge (WebSocket frames both ways) while each of these runs;
 *   - a long wheel scroll (10,000 px) of a list: how far it went, in how long, with its frame times.
 */
import type { Page } from 'playwright-core';
import { wheelThrough } from '../../e2e/helpers/wheel-scroll';

/** Counts the bridge's WebSocket bytes, both directions. */
export function countBridgeBytes(page: Page): { take(): number } {
  let bytes = 0;
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => (bytes += typeof frame.payload === 'string' ? Buffer.byteLength(frame.payload) : frame.payload.length));
    ws.on('framesent', (frame) => (bytes += typeof frame.payload === 'string' ? Buffer.byteLength(frame.payload) : frame.payload.length));
  });
  return {
    take() {
      const taken = bytes;
      bytes = 0;
      return taken;
    },
  };
}

/** Milliseconds from setting `hash` to the frame after `selector` is in the page. */
export async function navigationMs(page: Page, hash: string, selector: string, timeoutMs = 120_000): Promise<number> {
  return page.evaluate(
    ({ hash, selector, timeoutMs }) =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        window.location.hash = hash;
        const check = () => {
          if (document.querySelector(selector)) requestAnimationFrame(() => resolve(performance.now() - t0));
          else if (performance.now() - t0 > timeoutMs) reject(new Error(`${selector} did not appear within ${timeoutMs} ms of ${hash}`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { hash, selector, timeoutMs },
  );
}

/** Frame intervals (ms) while the as-of handle is dragged across most of the timeline axis. */
export async function dragFrameTimes(page: Page, steps = 40): Promise<number[]> {
  const axis = await page.locator('.tl-axis').boundingBox();
  const handle = await page.getByTestId('asof-handle').boundingBox();
  if (!axis || !handle) throw new Error('the timeline has no axis or as-of handle');
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const loop = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  const y = axis.y + axis.height - 4;
  await page.mouse.move(handle.x + handle.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(axis.x + axis.width * 0.1, y, { steps: steps / 2 });
  await page.mouse.move(axis.x + axis.width * 0.9, y, { steps: steps / 2 });
  await page.mouse.up();
  const frames = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) =>
        // Two more frames: what the last move rendered.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const w = window as unknown as { __frames: number[]; __recording: boolean };
            w.__recording = false;
            resolve(w.__frames.slice(1));
          }),
        ),
      ),
  );
  return frames;
}

/** Milliseconds from pressing Enter in the Facts search box to the frame showing a hit for `term`. */
export async function searchMs(page: Page, term: string, timeoutMs = 60_000): Promise<number> {
  const input = page.locator('.facts-screen input[type="search"], input[type="search"][placeholder^="Search facts"]').first();
  await input.fill(term);
  const done = page.evaluate(
    ({ term, timeoutMs }) =>
      new Promise<number>((resolve, reject) => {
        let t0: number | undefined;
        window.addEventListener('keydown', (e) => e.key === 'Enter' && (t0 = performance.now()), { capture: true, once: true });
        const needle = term.toLowerCase();
        const start = performance.now();
        const check = () => {
          const rows = [...document.querySelectorAll('.fact-row')].slice(0, 3);
          if (t0 !== undefined && rows.some((r) => (r.textContent ?? '').toLowerCase().includes(needle))) requestAnimationFrame(() => resolve(performance.now() - t0!));
          else if (performance.now() - start > timeoutMs) reject(new Error(`no hit for ${term} within ${timeoutMs} ms`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { term, timeoutMs },
  );
  await input.press('Enter');
  return done;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface LongScroll {
  px: number;
  ms: number;
  /** Frame intervals (ms) while it scrolled. */
  frames: number[];
}

/** Wheel-scrolls the list `selector` through `px` (helpers/wheel-scroll.ts), recording frames; stops at a page error. */
export async function longScroll(page: Page, selector: string, px: number, problems: () => readonly string[]): Promise<LongScroll> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const loop = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  const t0 = performance.now();
  let scrolled = 0;
  try {
    scrolled = await wheelThrough(page, selector, px, problems);
  } catch (error) {
    // The list is gone (a page error unmounted it): what was scrolled is what the problems say.
    if (problems().length === 0) throw error;
  }
  const ms = performance.now() - t0;
  const frames = await page
    .evaluate(() => {
      const w = window as unknown as { __frames: number[]; __recording: boolean };
      w.__recording = false;
      return w.__frames.slice(1);
    })
    .catch(() => [] as number[]);
  return { px: scrolled, ms, frames };
}

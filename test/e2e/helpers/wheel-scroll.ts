/**
 * Scrolling a list as a hand does: mouse-wheel steps over the element, each waited for in the page
 * (the frames until its scrollTop moves, then one more for what the move rendered). Used by the
 * scale test and by `npm run bench:ui`.
 */
import type { Page } from 'playwright-core';

/**
 * Wheel-scrolls the element `selector` by `totalPx` (negative: up) in steps of `step` px and returns
 * how far it really moved (its scrollTop's change). Stops early at the list's end (three steps that
 * moved nothing) or when `problems()` reports a page error; throws when the element is gone.
 */
export async function wheelThrough(page: Page, selector: string, totalPx: number, problems: () => readonly string[] = () => [], step = 400): Promise<number> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`nothing to scroll: no ${selector} on the page`);
  const viewport = page.viewportSize();
  const bottom = Math.min(box.y + box.height, viewport?.height ?? Infinity);
  await page.mouse.move(box.x + box.width * 0.6, (box.y + bottom) / 2);
  const sign = Math.sign(totalPx);
  let scrolled = 0;
  let stuck = 0;
  while (Math.abs(scrolled) < Math.abs(totalPx) && stuck < 3 && problems().length === 0) {
    const before = await page.evaluate((s) => document.querySelector(s)?.scrollTop ?? null, selector);
    if (before === null) throw new Error(`${selector} is gone after scrolling ${scrolled} px: ${problems().join(' | ') || 'no page error'}`);
    await page.mouse.wheel(0, sign * step);
    const after = await page.evaluate(
      ({ s, before }) =>
        new Promise<number | null>((resolve) => {
          let frames = 0;
          const check = () => {
            const top = document.querySelector(s)?.scrollTop ?? null;
            if (top === null) resolve(null);
            else if (top !== before || ++frames > 30) requestAnimationFrame(() => resolve(document.querySelector(s)?.scrollTop ?? null));
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
      { s: selector, before },
    );
    if (after === null) throw new Error(`${selector} is gone after scrolling ${scrolled} px: ${problems().join(' | ') || 'no page error'}`);
    stuck = after === before ? stuck + 1 : 0;
    scrolled += after - before;
  }
  return scrolled;
}

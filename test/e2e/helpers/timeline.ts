/** Driving the timeline from a test: where an instant is on the axis, dragging the as-of cursor. */
import type { Page } from 'playwright-core';

/** Drags the as-of cursor handle to the instant `iso` (the axis maps its domain onto its width). */
export async function dragAsOfTo(page: Page, iso: string): Promise<void> {
  const axis = page.locator('.tl-axis');
  const box = await axis.boundingBox();
  if (!box) throw new Error('no timeline axis');
  const from = Number(await axis.getAttribute('data-from'));
  const to = Number(await axis.getAttribute('data-to'));
  const x = box.x + ((Date.parse(iso) - from) / (to - from)) * box.width;
  const handle = await page.getByTestId('asof-handle').boundingBox();
  if (!handle) throw new Error('no as-of handle');
  const y = box.y + box.height - 4;
  await page.mouse.move(handle.x, y);
  await page.mouse.down();
  // Several steps, like a hand: the cursor follows the pointer all the way.
  await page.mouse.move((handle.x + x) / 2, y, { steps: 5 });
  await page.mouse.move(x, y, { steps: 5 });
  await page.mouse.up();
}

/** The values the as-of panel gives for a row ("me · manager" → "A"). */
export async function asOfAnswer(page: Page, row: string): Promise<string | null> {
  const answer = page.getByTestId('asof-answer').filter({ has: page.locator('.asof-question', { hasText: row }) });
  if ((await answer.count()) === 0) return null;
  return (await answer.locator('.asof-values').innerText()).trim();
}

/** Driving the timeline from a test: where an instant is on the axis, dragging the as-of cursor. */
import type { Page } from 'playwright-core';
import type { ObservationInput } from '../../../shared/observation-schema';

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

const DAY = 86_400_000;

/**
 * The user-trial's memory: 226 facts over 2021–2026 (Tokyo), the user's and twenty people's jobs,
 * homes and things liked, spread evenly from January 2021 to late November 2026; the first on
 * 2021-01-10, the last ending before `now`. Deterministic.
 */
export function trialMemory(): { observations: ObservationInput[]; first: number; last: number } {
  const first = Date.parse('2021-01-10T10:00:00+09:00');
  const span = Date.parse('2026-11-20T10:00:00+09:00') - first;
  const out: ObservationInput[] = [];
  let last = first;
  for (let i = 0; i < 226; i++) {
    const who = i % 21 === 0 ? 'me' : `Person ${(i % 21) + 1}`;
    const start = first + Math.round((span * i) / 225 / DAY) * DAY;
    const predicate = ['likes', 'visited', 'reads'][i % 3]!;
    const ends = i % 4 === 0 && start + 200 * DAY < Date.parse('2026-11-30T00:00:00Z');
    const end = start + 200 * DAY;
    if (ends) last = Math.max(last, end);
    last = Math.max(last, start);
    out.push({
      subject: who,
      predicate,
      object: `thing ${i}`,
      fact: `${who} ${predicate} thing ${i}.`,
      reference_time: new Date(start).toISOString(),
      valid_at: new Date(start).toISOString(),
      ...(ends ? { invalid_at: new Date(end).toISOString() } : {}),
      cardinality: 'many',
    });
  }
  return { observations: out, first, last };
}

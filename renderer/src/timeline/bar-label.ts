/**
 * A bar's label on the chart: the text that fits in the part of the bar that is on screen, starting
 * at that part's left edge (a bar that began before the window still shows its name at the left).
 */

/** `text` cut to about `px` pixels (CJK characters count double), with an ellipsis when cut. */
export function textFits(text: string, px: number): string {
  let used = 0;
  let out = '';
  for (const ch of text) {
    used += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 12 : 6.6;
    if (used > px) return out.length > 0 ? `${out.slice(0, -1)}…` : '';
    out += ch;
  }
  return out;
}

/** Where a bar [x1, x2] shows its label inside [0, width]: the x to start at and the text that fits. */
export function visibleLabel(text: string, x1: number, x2: number, width: number): { x: number; text: string } {
  const left = Math.max(0, x1);
  const right = Math.min(width, x2);
  return { x: left + 5, text: right - left > 12 ? textFits(text, right - left - 10) : '' };
}

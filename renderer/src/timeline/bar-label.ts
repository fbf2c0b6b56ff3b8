/**
 * A bar's label on the chart: the text that fits in the part of the bar that is on screen, starting
 * at that part's left edge (a bar that began before the window still shows its name at the left).
 */

/** A canvas's 2D context, as far as measuring goes (typed here: this module is also compiled without the DOM's types, for tests). */
interface Measurer {
  font: string;
  measureText(text: string): { width: number };
}
interface Page {
  document?: { createElement(tag: 'canvas'): { getContext(kind: '2d'): Measurer | null }; documentElement: object };
  getComputedStyle?(element: object): { fontFamily: string };
}

let canvas: Measurer | null | undefined;

/** The width of `text` in the bars' font (11px, weight 600), measured; null where there is no page (tests). */
function measured(text: string): number | null {
  if (canvas === undefined) {
    const page = globalThis as Page;
    canvas = page.document && page.getComputedStyle ? page.document.createElement('canvas').getContext('2d') : null;
    if (canvas) canvas.font = `600 11px ${page.getComputedStyle!(page.document!.documentElement).fontFamily}`;
  }
  return canvas ? canvas.measureText(text).width : null;
}

/** The width of `text` in the bars' and the axis's bold 11px font: measured in the page, else estimated. */
export function textWidth(text: string): number {
  const width = measured(text);
  if (width !== null) return width;
  let used = 0;
  for (const ch of text) used += /[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 12 : 6.6;
  return used;
}

/** `text` cut to `px` pixels, with an ellipsis when cut: measured in the page, else estimated. */
export function textFits(text: string, px: number): string {
  const whole = measured(text);
  if (whole !== null) {
    if (whole <= px) return text;
    // The longest start that fits with its ellipsis.
    const chars = [...text];
    let lo = 0;
    let hi = chars.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((measured(`${chars.slice(0, mid).join('')}…`) ?? Infinity) <= px) lo = mid;
      else hi = mid - 1;
    }
    return lo > 0 ? `${chars.slice(0, lo).join('')}…` : '';
  }
  return estimatedFit(text, px);
}

/** `text` cut to about `px` pixels (CJK characters count double), with an ellipsis when cut. */
function estimatedFit(text: string, px: number): string {
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

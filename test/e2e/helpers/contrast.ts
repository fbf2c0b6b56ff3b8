/**
 * WCAG contrast in the page: colours as computed styles give them ("rgb(…)", "rgba(…)",
 * "color(srgb …)"), composited over what is behind them, and the ratio of two. The functions run in
 * the page (page.evaluate serialises only the function it is given, and the CSP blocks injected
 * scripts), so `installContrast` puts them on `window` once per page.
 */
import type { Page } from 'playwright-core';

export interface ContrastKit {
  /** A computed colour as [r, g, b, a] (0–255, alpha 0–1). */
  rgb: (value: string) => [number, number, number, number];
  /** `top` (with its alpha) over an opaque `bottom`: the colour seen. */
  over: (top: readonly number[], bottom: readonly number[]) => number[];
  /** WCAG relative luminance of an opaque colour. */
  luminance: (colour: readonly number[]) => number;
  /** WCAG contrast ratio of two opaque colours (1–21). */
  ratio: (a: readonly number[], b: readonly number[]) => number;
}

declare global {
  interface Window {
    temporaContrast?: ContrastKit;
  }
}

export async function installContrast(page: Page): Promise<void> {
  await page.evaluate(() => {
    const rgb = (value: string): [number, number, number, number] => {
      const m = value.match(/rgba?\(([^)]+)\)/);
      if (m) {
        const [r, g, b, a] = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
        return [r!, g!, b!, a ?? 1];
      }
      const c = value.match(/color\(srgb ([^)]+)\)/);
      if (c) {
        const [r, g, b, a] = c[1]!.split(/[ /]+/).filter(Boolean).map(Number);
        return [r! * 255, g! * 255, b! * 255, a ?? 1];
      }
      throw new Error(`unknown colour ${value}`);
    };
    const over = (top: readonly number[], bottom: readonly number[]) => [0, 1, 2].map((i) => top[i]! * (top[3] ?? 1) + bottom[i]! * (1 - (top[3] ?? 1)));
    const luminance = (colour: readonly number[]) => {
      const [r, g, b] = colour.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: readonly number[], b: readonly number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    window.temporaContrast = { rgb, over, luminance, ratio };
  });
}

/**
 * `npm run bench:ui` — the screens at scale: Chromium (Debian's, through playwright-core) drives the
 * built renderer over the loopback bridge, on a real engine whose memory is the synthetic memory of
 * `npm run bench` at each size. Per screen (timeline, facts, a fact's page, the chat's fact chips,
 * what changed, a fact's slot history):
 * navigation to first painted content (median and worst of --runs cold loads: the page is reloaded
 * before each, so nothing is cached in the page), bytes over the bridge for it; on the timeline the
 * as-of cursor drag's frame time p95; on Facts a search keystroke to results. Goals (issue 14): each
 * ≤ 200 ms at 100k; at 1M within 2× of the 1k figure. Then the Timeline and the Facts list are
 * wheel-scrolled through 10,000 px each, or to their end (issue 25): any page error or console
 * error of the run is printed, and the run exits non-zero.
 *
 *   npm run bench:ui                       1k and 100k observations
 *   npm run bench:ui -- --sizes 1k,100k,1m  any sizes (1M builds for a few minutes and needs ~4 GB)
 *   npm run bench:ui -- --runs 5           cold loads per screen (default 3)
 *   npm run -s bench:ui -- --json          one JSON object
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TemporaEngine } from '../../../electron/engine/index';
import { startBridge } from '../../../electron/server/bridge-server';
import { launchBrowser } from '../../e2e/helpers/browser';
import { ensureRendererBuilt } from '../../e2e/helpers/renderer-build';
import { countBridgeBytes, dragFrameTimes, longScroll, navigationMs, percentile, searchMs, type LongScroll } from './screen-timings';
import { buildUiBenchMemory, type UiBenchMemory } from './ui-bench-memory';

process.env.LANCEDB_LOG ??= 'error';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1k,100k' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('npm run bench:ui [-- --sizes 1k,100k,1m] [--runs N] [--json]');
  process.exit(0);
}

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`--sizes: ${JSON.stringify(text)} is not a size like 1k, 100k or 1m`);
  return Math.round(Number(match[1]) * ({ k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase() as 'k' | 'm'] ?? 1));
}

const sizes = args.sizes.split(',').map(parseSize);
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: ${args.runs} is not a whole number of runs`);

interface ScreenFigure {
  screen: string;
  medianMs: number;
  worstMs: number;
  bytes: number;
  extra: string;
}

interface SizeFigures {
  observations: number;
  facts: number;
  buildMs: number;
  screens: ScreenFigure[];
  /** The long wheel scrolls, by list. */
  scrolls: (LongScroll & { list: string })[];
  /** The page's errors and console errors during the whole run at this size. */
  problems: string[];
}

/** The lists wheel-scrolled through SCROLL_PX each. */
const SCROLL_PX = 10_000;
const SCROLLS = [
  { list: 'timeline', hash: '#/timeline', ready: '.tl-row, .tl-group', selector: '.tl-body' },
  { list: 'facts', hash: '#/facts', ready: '.fact-row', selector: '.fact-list' },
];

const SCREENS = (m: UiBenchMemory, slotFactId: string) => [
  { screen: 'timeline', hash: '#/timeline', selector: '.tl-row, .tl-group' },
  { screen: 'facts', hash: '#/facts', selector: '.fact-row' },
  { screen: "a fact's page", hash: `#/facts/${encodeURIComponent(m.factId)}`, selector: '.fact-page .fact-header' },
  { screen: 'chat fact chips', hash: `#/chat/${encodeURIComponent(m.conversationId)}`, selector: '.used-facts' },
  { screen: 'what changed', hash: '#/changes', selector: '.change-row' },
  { screen: "a fact's slot history", hash: `#/facts/${encodeURIComponent(slotFactId)}`, selector: '.slot-history li' },
];

async function benchSize(observations: number, root: string, rendererDir: string): Promise<SizeFigures> {
  const memory = await buildUiBenchMemory(root, observations);
  const engine = await TemporaEngine.open({ dataDir: memory.dataDir, autoLoadModels: false });
  const bridge = await startBridge({ engine, rendererDir, port: 0 });
  const browser = await launchBrowser();
  // tsx keeps function names with a __name helper that the page's copy of a function lacks.
  await browser.context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const { page } = browser;
  page.setDefaultTimeout(120_000);
  const bytes = countBridgeBytes(page);
  const figures: ScreenFigure[] = [];
  const scrolls: SizeFigures['scrolls'] = [];
  try {
    await page.goto(bridge.url);
    await page.locator('nav[aria-label="Main"]').waitFor();
    /** A cold start of the page on a light screen, then the measured navigation. */
    const cold = async (hash: string, selector: string) => {
      await page.evaluate(() => (window.location.hash = '#/data'));
      await page.reload();
      await page.locator('nav[aria-label="Main"]').waitFor();
      await page.locator('.data-screen').waitFor();
      bytes.take();
      const ms = await navigationMs(page, hash, selector);
      return { ms, bytes: bytes.take() };
    };
    // The slot history of "me · manager" (the slot a user asks about; the one that changed most), else the fact page's.
    const slotFactId = engine.memory.facts.list({ subject: 'me', predicate: 'manager', limit: 1 })[0]?.id ?? memory.factId;
    for (const { screen, hash, selector } of SCREENS(memory, slotFactId)) {
      const times: number[] = [];
      let sent = 0;
      for (let run = 0; run < runs; run++) {
        const r = await cold(hash, selector);
        times.push(r.ms);
        sent = r.bytes;
      }
      let extra = '';
      if (screen === 'timeline') {
        // The drag is measured on a settled screen: the as-of answers (asked once the chart's first
        // rows have come) are in, so their first page is not counted as the drag's.
        await page.getByTestId('asof-answer').first().waitFor();
        bytes.take();
        const frames = await dragFrameTimes(page);
        extra = `as-of drag: frame p95 ${percentile(frames, 95).toFixed(1)} ms, worst ${Math.max(...frames).toFixed(1)} ms over ${frames.length} frames, ${kb(bytes.take())}`;
      }
      if (screen === 'facts') {
        const searches: number[] = [];
        let searchBytes = 0;
        for (let run = 0; run < runs; run++) {
          await cold(hash, selector);
          searches.push(await searchMs(page, memory.searchTerm));
          searchBytes = bytes.take();
        }
        extra = `search "${memory.searchTerm}": median ${percentile(searches, 50).toFixed(0)} ms, worst ${Math.max(...searches).toFixed(0)} ms, ${kb(searchBytes)}`;
      }
      figures.push({ screen, medianMs: percentile(times, 50), worstMs: Math.max(...times), bytes: sent, extra });
      if (!args.json) console.log(`  ${screen}: ${percentile(times, 50).toFixed(0)} ms${extra ? ` · ${extra}` : ''}`);
    }
    for (const { list, hash, ready, selector } of SCROLLS) {
      await cold(hash, ready);
      const scroll = { list, ...(await longScroll(page, selector, SCROLL_PX, () => browser.problems)) };
      scrolls.push(scroll);
      if (!args.json) console.log(`  ${list} scroll: ${scrollCell(scroll)}`);
    }
  } finally {
    // Printed even when a screen never appeared (a page error may be why).
    if (browser.problems.length && !args.json) console.error(`  page errors (${browser.problems.length}):\n${browser.problems.map((p) => `    ${p}`).join('\n')}`);
    await browser.close().catch(() => undefined);
    await bridge.close().catch(() => undefined);
    await engine.close(2_000).catch(() => undefined);
  }
  return { observations, facts: memory.facts, buildMs: memory.buildMs, screens: figures, scrolls, problems: [...browser.problems] };
}

function scrollCell(s: LongScroll): string {
  const end = s.px < SCROLL_PX ? ' (the end)' : '';
  return `${s.px.toLocaleString('en-US')} px${end} in ${(s.ms / 1000).toFixed(1)} s, frame p95 ${percentile(s.frames, 95).toFixed(1)} ms`;
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

function table(all: SizeFigures[]): string {
  const lines = ['| screen | ' + all.map((s) => `${s.observations.toLocaleString('en-US')} obs (${s.facts.toLocaleString('en-US')} fact versions)`).join(' | ') + ' |'];
  lines.push('| --- |' + all.map(() => ' --- |').join(''));
  for (const screen of all[0]?.screens.map((s) => s.screen) ?? []) {
    const cells = all.map((s) => {
      const f = s.screens.find((x) => x.screen === screen)!;
      return `${f.medianMs.toFixed(0)} ms (worst ${f.worstMs.toFixed(0)}), ${kb(f.bytes)}`;
    });
    lines.push(`| ${screen} | ${cells.join(' | ')} |`);
  }
  for (const screen of ['timeline', 'facts']) {
    const label = screen === 'timeline' ? 'as-of drag' : 'search';
    lines.push(`| ${label} | ${all.map((s) => s.screens.find((x) => x.screen === screen)!.extra.replace(/^[^:]*: /, '')).join(' | ')} |`);
  }
  for (const { list } of SCROLLS) lines.push(`| ${list}: ${SCROLL_PX.toLocaleString('en-US')} px wheel scroll | ${all.map((s) => scrollCell(s.scrolls.find((x) => x.list === list)!)).join(' | ')} |`);
  lines.push(`| page errors | ${all.map((s) => String(s.problems.length)).join(' | ')} |`);
  return lines.join('\n');
}

const rendererDir = await ensureRendererBuilt();
const root = mkdtempSync(join(tmpdir(), 'tempora-bench-ui-'));
const results: SizeFigures[] = [];
try {
  for (const size of sizes) {
    if (!args.json) console.log(`\n=== ${size.toLocaleString('en-US')} observations ===`);
    const figures = await benchSize(size, root, rendererDir);
    if (!args.json) console.log(`  (memory built in ${(figures.buildMs / 1000).toFixed(1)} s: ${figures.facts.toLocaleString('en-US')} fact versions)`);
    results.push(figures);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (args.json) console.log(JSON.stringify({ runs, results }, null, 2));
else console.log(`\n${table(results)}\n\nNavigation: hash change to the frame after the first content, median of ${runs} cold loads (page reloaded before each).`);
const failed = results.filter((r) => r.problems.length > 0);
if (failed.length) {
  console.error(`\nFAILED: page errors at ${failed.map((r) => r.observations.toLocaleString('en-US')).join(', ')} observations (printed above).`);
  process.exitCode = 1;
}

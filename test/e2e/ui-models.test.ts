/**
 * The Models screen in Chromium against the bridge, with a catalogue whose model is served by a
 * slow loopback HTTP server: fit labels, download with a progress bar, cancel, resume, done; the
 * downloaded model loaded for chat from its card, shown as loaded, unloaded.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueModel } from '../../electron/llm/model-catalogue';
import { writeTinyGguf } from '../fixtures/tiny-gguf';
import { screenshot } from './helpers/screenshots';
import { serveSlowly, type SlowServer } from './helpers/slow-model-server';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';

let server: SlowServer;
let file: Buffer;
const FILE_NAME = 'tempora-tiny-download.gguf';

function entry(id: string, name: string, fit: 'fits' | 'may_be_slow' | 'wont_fit', uri: string, sizeBytes: number, sha256: string | null, notes: string): CatalogueModel {
  return { id, name, role: 'chat', uri, fileName: `${id}.gguf`, sizeBytes, sizeIsExact: sha256 !== null, sha256, ramBytes: sizeBytes * 2, contextLength: 2048, notes, fitFor: () => fit };
}

describe.skipIf(CHROMIUM_MISSING !== null)('the Models screen through the bridge', () => {
  let catalogue: CatalogueModel[];

  beforeAll(async () => {
    const { tmpdir } = await import('node:os');
    const fixture = join(tmpdir(), `tempora-ui-models-${process.pid}.gguf`);
    // ~17 MB: more than three of the downloader's 5 MiB chunks, so a cancelled download leaves a
    // partial file to resume from.
    await writeTinyGguf(fixture, { seed: 3, embeddingLength: 256, feedForwardLength: 1024, blockCount: 4 });
    file = readFileSync(fixture);
    rmSync(fixture);
    // 256 kB every 40 ms (about 2.7 s in all), the last 64 kB held back until the test releases them:
    // time enough to watch the bar move, and a download to cancel once its first chunks are saved.
    server = await serveSlowly(file, { chunkBytes: 256 * 1024, everyMs: 40, holdTailBytes: 64 * 1024 });
    const sha256 = createHash('sha256').update(file).digest('hex');
    catalogue = [
      { ...entry('tiny-loopback', 'Tempora tiny (loopback)', 'fits', `${server.url}/tiny.gguf`, file.length, sha256, 'A tiny random-weights model served by the test’s loopback server.'), fileName: FILE_NAME },
      entry('medium-demo', 'Medium demo model', 'may_be_slow', `${server.url}/medium.gguf`, 4_700_000_000, null, 'Would compete with other programs for memory.'),
      entry('large-demo', 'Large demo model', 'wont_fit', `${server.url}/large.gguf`, 40_000_000_000, null, 'Needs more memory than this machine has.'),
    ];
  });

  afterAll(async () => {
    await server?.close();
  });

  const ui = useUi(() => ({ engine: { catalogue, startWorker: false }, shotPrefix: 'models' }));

  beforeAll(async () => {
    await go(ui().page, '#/models');
  });

  const card = (id: string) => ui().page.locator(`[data-model-id="${id}"]`);

  it('labels each catalogue model with how it fits this machine', async () => {
    await expect.poll(() => card('tiny-loopback').locator('.fit').textContent()).toBe('Fits this machine');
    expect(await card('medium-demo').locator('.fit').textContent()).toBe('May be slow');
    expect(await card('large-demo').locator('.fit').textContent()).toBe('Won’t fit');
    expect(await ui().page.locator('.loaded-row[data-role="chat"]').textContent()).toContain('No chat model');
  });

  it('downloads with a progress bar, cancels, resumes and reaches done', async () => {
    const { page } = ui();
    await card('tiny-loopback').getByRole('button', { name: 'Download' }).click();
    const bar = card('tiny-loopback').locator('progress');
    const percent = async () => ((await bar.count()) > 0 ? Number(await bar.evaluate((el: HTMLProgressElement) => el.value)) : 0);
    await expect.poll(percent, { interval: 20 }).toBeGreaterThan(25);
    await screenshot(page, 'models-downloading', { docs: true });
    // Waiting for the held-back tail: the first chunks are on disk, so there is something to resume.
    await expect.poll(percent, { interval: 20, timeout: 20_000 }).toBeGreaterThan(99);
    await card('tiny-loopback').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => card('tiny-loopback').textContent()).toContain('Download cancelled; it can be resumed.');
    await expect.poll(() => card('tiny-loopback').getByRole('button', { name: 'Resume download' }).count()).toBe(1);
    expect(existsSync(join(ui().engine.models.modelsDir, FILE_NAME))).toBe(false);

    // Sample the bar while the download resumes: it only moves forward.
    await page.evaluate(() => {
      const samples: number[] = [];
      (window as unknown as { progressSamples: number[] }).progressSamples = samples;
      setInterval(() => {
        const progress = document.querySelector<HTMLProgressElement>('[data-model-id="tiny-loopback"] progress');
        if (progress) samples.push(progress.value);
      }, 15);
    });
    server.release();
    await card('tiny-loopback').getByRole('button', { name: 'Resume download' }).click();
    await expect.poll(() => card('tiny-loopback').locator('.badge.ok').textContent(), { timeout: 30_000 }).toBe('Downloaded');
    const samples = await page.evaluate(() => (window as unknown as { progressSamples: number[] }).progressSamples);
    expect(samples.length).toBeGreaterThan(0);
    expect(Math.max(...samples)).toBeGreaterThan(0);
    for (let i = 1; i < samples.length; i++) expect(samples[i]!).toBeGreaterThanOrEqual(samples[i - 1]!);
    expect(readFileSync(join(ui().engine.models.modelsDir, FILE_NAME)).equals(file)).toBe(true);
    // Resumed: the second download asked only for what was missing.
    expect(server.requests.slice(4).some((r) => r.range !== null && !r.range.startsWith('bytes=0-'))).toBe(true);
  });

  it('loads the downloaded model for chat from its card, shows it as loaded, and unloads it', async () => {
    const { page } = ui();
    await card('tiny-loopback').getByRole('button', { name: 'Load for chat' }).click();
    await expect.poll(() => card('tiny-loopback').textContent(), { timeout: 60_000 }).toContain('Loaded for chat');
    await expect.poll(() => page.locator('.loaded-row[data-role="chat"]').textContent()).toContain(FILE_NAME);
    await screenshot(page, 'models', { docs: true });
    await page.locator('.loaded-row[data-role="chat"]').getByRole('button', { name: 'Unload' }).click();
    await expect.poll(() => page.locator('.loaded-row[data-role="chat"]').textContent()).toContain('No chat model');
    expect(ui().browser.problems).toEqual([]);
  });
});


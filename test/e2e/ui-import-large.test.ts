/**
 * Any export imports back through the Export / Import screen, in Chromium over the bridge (whose
 * frames are at most 25 MiB): the export of a 100k-observation memory (tens of MiB) is uploaded
 * in chunks to a file staged in the engine's data directory, previewed by reading that file piece
 * by piece, and imported from it into an empty memory; the counts match. Cancel removes
 * the staged file; a file that is not JSON is refused naming its line and column. The memory it
 * made is saved back through the same screen, pulled from the engine a piece at a time.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

let work: string;
let exportFile: string;
let counts: { facts: number; entities: number; episodes: number; conversations: number };

/** "104,123" or "104123": the count as the page may write it. */
const number = (n: number) => new RegExp(`(?<!\\d)${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '[,.  ]?')}(?!\\d)`);

describe.skipIf(CHROMIUM_MISSING !== null)('importing a large export through the screen', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'tempora-import-large-'));
    // The synthetic export of `npm run bench` at 100k observations (compact JSON: the same records
    // in a third of the bytes of pretty JSON, so two busy cores upload it within the test's time).
    const doc = syntheticExport(generateSyntheticMemory({ observations: 100_000, seed: 42 }));
    counts = { facts: doc.facts.length, entities: doc.entities.length, episodes: doc.episodes.length, conversations: doc.conversations.length };
    exportFile = join(work, 'tempora-export.json');
    writeFileSync(exportFile, JSON.stringify(doc));
  }, 600_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const ui = useUi({ zone: 'Europe/London', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false } });
  const staged = () => (existsSync(join(ui().dir, 'data', 'uploads')) ? readdirSync(join(ui().dir, 'data', 'uploads')) : []);

  it('cancels an upload and removes what was staged', async () => {
    const { page } = ui();
    await go(page, '#/data');
    await page.getByLabel('Memory file (.json)').setInputFiles(exportFile);
    const panel = page.getByRole('region', { name: 'Import', exact: true });
    // Two busy cores can hold the page for seconds while a chunk is encoded: generous waits.
    await panel.getByRole('progressbar').waitFor({ timeout: 60_000 });
    await panel.getByRole('button', { name: 'Cancel' }).click({ timeout: 60_000 });
    await panel.getByRole('progressbar').waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(staged).toEqual([]);
    expect(await panel.getByLabel('Import preview').count()).toBe(0);
  });

  it(
    'uploads, previews and imports a 100k export over the 25 MiB frame limit; the counts match',
    async () => {
      const { page, engine } = ui();
      expect(statSync(exportFile).size).toBeGreaterThan(25 * 1024 ** 2);
      await go(page, '#/data');
      await page.getByLabel('Memory file (.json)').setInputFiles(exportFile);
      const panel = page.getByRole('region', { name: 'Import', exact: true });
      await panel.getByRole('progressbar').waitFor({ timeout: 60_000 });

      const preview = panel.getByLabel('Import preview');
      await preview.waitFor({ timeout: 420_000 });
      const text = (await preview.textContent()) ?? '';
      expect(text).toMatch(number(counts.facts));
      expect(text).toMatch(number(counts.episodes));
      expect(engine.memory.conversations.list()).toEqual([]);

      await preview.getByRole('button', { name: 'Import' }).click();
      await expect.poll(() => panel.locator('.note[role="status"]').textContent(), { timeout: 420_000 }).toContain('Imported');
      await screenshot(page, 'import-large');
      const after = engine.memory.transfer.export();
      expect({ facts: after.facts.length, entities: after.entities.length, episodes: after.episodes.length, conversations: after.conversations.length }).toEqual(counts);
      // The staged file is gone once imported.
      expect(staged()).toEqual([]);
    },
    900_000,
  );

  it(
    'saves that memory back as an export over the frame limit, pulled in pieces with a progress bar, equal to the engine’s',
    async () => {
      const { page, engine } = ui();
      await go(page, '#/data');
      const panel = page.getByRole('region', { name: 'Export', exact: true });
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 300_000 }),
        (async () => {
          await panel.getByRole('button', { name: 'Save export…' }).click();
          await panel.getByRole('progressbar', { name: 'Export progress' }).waitFor({ timeout: 60_000 });
        })(),
      ]);
      const file = join(work, 'saved.json');
      await download.saveAs(file);
      expect(statSync(file).size).toBeGreaterThan(25 * 1024 ** 2);
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { exported_at: string };
      const { exported_at: a, ...savedRest } = saved;
      const { exported_at: b, ...engineRest } = engine.memory.transfer.export();
      expect(a <= b).toBe(true);
      expect(savedRest).toEqual(engineRest);
      await expect.poll(() => panel.getByRole('status').textContent()).toContain(`Exported`);
      expect(await panel.getByRole('progressbar').count()).toBe(0);
    },
    600_000,
  );

  it('refuses a file that is not JSON, naming the line and column', async () => {
    const { page } = ui();
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{\n  "format": "tempora.memory",\n  "version": 3,\n  "facts": [,]\n}\n');
    await go(page, '#/data');
    await page.getByLabel('Memory file (.json)').setInputFiles(broken, { timeout: 60_000 });
    const panel = page.getByRole('region', { name: 'Import', exact: true });
    await expect.poll(() => panel.getByRole('alert').first().textContent()).toMatch(/^broken\.json cannot be imported: it is not JSON: line 4, column 13\b/);
    await expect.poll(staged).toEqual([]);
  });
});

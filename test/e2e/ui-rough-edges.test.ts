/**
 * Rough edges of the Facts, Timeline and Models screens, in Chromium against the bridge (real
 * engine): form errors in words that name the field, edit fields pre-filled in the user's zone
 * with a date picker beside them, every value of a many-valued slot in "True as of", one search
 * note, a download that keeps its progress when you leave the screen or reload, and one
 * recommended model listed first. (An unreachable server in words: model-download-words.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import type { CatalogueModel } from '../../electron/llm/model-catalogue';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { serveSlowly, type SlowServer } from './helpers/slow-model-server';
import { go, useUi } from './helpers/ui-session';

let server: SlowServer;

function seed(engine: TemporaEngine): void {
  engine.memory.facts.observe([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T01:00:00Z', cardinality: 'one' },
    { subject: 'me', predicate: 'office', object: 'Shibuya', fact: 'My office is in Shibuya.', reference_time: '2026-09-01T01:00:00Z', cardinality: 'one' },
    { subject: 'me', predicate: 'office', object: 'Ebisu', fact: 'My office is in Ebisu now.', reference_time: '2026-10-01T01:00:00Z', cardinality: 'one' },
    ...['tea', 'coffee', 'miso soup'].map((object) => ({ subject: 'me', predicate: 'likes', object, fact: `I like ${object}.`, reference_time: '2026-09-02T01:00:00Z', cardinality: 'many' as const })),
  ]);
}

function entry(id: string, fit: 'fits' | 'may_be_slow' | 'wont_fit', uri: string, sizeBytes: number, ramBytes: number): CatalogueModel {
  return { id, name: id, role: 'chat', uri, fileName: `${id}.gguf`, sizeBytes, sizeIsExact: false, sha256: null, ramBytes, contextLength: 2048, notes: `${id} notes`, fitFor: () => fit };
}

describe.skipIf(CHROMIUM_MISSING !== null)('rough edges', () => {
  let catalogue: CatalogueModel[];

  beforeAll(async () => {
    const file = Buffer.alloc(2 * 1024 * 1024, 0x47);
    // The tail is held back until the test ends: the download stays in progress meanwhile.
    server = await serveSlowly(file, { chunkBytes: 64 * 1024, everyMs: 20, holdTailBytes: 64 * 1024 });
    catalogue = [
      entry('small-fits', 'fits', `${server.url}/small.gguf`, file.length, 1_000_000_000),
      entry('best-fits', 'fits', `${server.url}/best.gguf`, 3_000_000_000, 3_000_000_000),
      entry('slow-one', 'may_be_slow', `${server.url}/slow.gguf`, 9_000_000_000, 9_000_000_000),
    ];
  });

  afterAll(async () => {
    await server?.close();
  });

  const ui = useUi(() => ({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { catalogue, startWorker: false }, seed, shotPrefix: 'rough' }));

  afterAll(() => {
    ui().engine.models.cancelDownload('small-fits');
    server?.release();
  });

  it('edit form: pre-filled in the zone and locale, errors name the field in words, a date typed in words is read', async () => {
    const { page, engine } = ui();
    const fact = engine.memory.facts.list({ predicate: 'manager' })[0]!;
    await go(page, `#/facts/${encodeURIComponent(fact.id)}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('True from', { exact: true }).inputValue()).toBe('Sep 1, 2026');

    await page.getByLabel('Fact', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    const factField = page.locator('.fact-form .field', { has: page.getByLabel('Fact', { exact: true }) });
    await expect.poll(() => factField.getByRole('alert').textContent()).toBe('Fact: must not be empty');

    await page.getByLabel('Fact', { exact: true }).fill('My manager is A.');
    await page.getByLabel(/^True until/).fill('2026-08-01');
    await page.getByRole('button', { name: 'Save' }).click();
    const untilField = page.locator('.fact-form .field', { has: page.getByLabel(/^True until/) });
    await expect.poll(() => untilField.getByRole('alert').textContent()).toBe(
      // The times as this en-US page says every other ("Sep 1, 2026" above), not the engine's en-GB.
      'True until (Aug 1, 2026) must be after true from (Sep 1, 2026), times in Asia/Tokyo',
    );
    expect(await page.locator('.fact-form').textContent()).not.toContain('invalid request');
    await screenshot(page, 'fact-edit-errors');

    // No native picker (month-first whatever the locale): the day as people write it.
    await page.getByLabel(/^True until/).fill('20 September 2026');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.fact-times').textContent()).toContain('Sep 20, 2026');
  });

  it('the close form says a refused end in the page’s locale, as the page says the start', async () => {
    const { page, engine } = ui();
    const tea = engine.memory.facts.list({ predicate: 'likes' }).find((f) => f.object === 'tea')!;
    await go(page, `#/facts/${encodeURIComponent(tea.id)}`);
    await page.getByRole('button', { name: 'Close…' }).click();
    await page.getByLabel('No longer true from').fill('1 August 2026');
    await page.getByRole('button', { name: 'Close fact' }).click();
    const field = page.locator('.fact-form .field', { has: page.getByLabel('No longer true from') });
    await expect.poll(() => field.getByRole('alert').textContent()).toBe('No longer true from (Aug 1, 2026) must be after true from (Sep 2, 2026), times in Asia/Tokyo');
    expect(await page.locator('.fact-times').textContent()).toContain('Sep 2, 2026');
  });

  it('an end past the next value is saved and said to be held back by it; reopening says the kept end is dropped', async () => {
    const { page, engine } = ui();
    const shibuya = () => engine.memory.facts.list({ predicate: 'office', history: true }).find((f) => f.object === 'Shibuya' && f.expired_at === null)!;
    await go(page, `#/facts/${encodeURIComponent(shibuya().id)}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel(/^True until/).fill('1 December 2026');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe(
      'Saved. It still ends where the next value begins (Oct 1, 2026); the end you gave is kept and shows only if that fact goes. To move this end, change when that fact began.',
    );
    expect(shibuya().invalid_at).toBe('2026-10-01T01:00:00.000Z');
    // The version the edit wrote says what it kept; the page says the kept end beside its own.
    const current = page.locator('.versions li[aria-current="true"]');
    await expect.poll(() => current.locator('.version-changes').innerText()).toBe('end you gave: Dec 1, 2026 (kept: it still ends where the next value begins)');
    expect(await page.locator('.versions').innerText()).not.toContain('no field changed');
    expect(await page.locator('.fact-times').innerText()).toContain('End you gave\nDec 1, 2026 (kept: shows only if the value after it goes)');

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel(/^True until/).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe(
      'Saved. It still ends where the next value begins (Oct 1, 2026); the end you had given is dropped, so it stays open if that fact goes.',
    );
    await expect.poll(() => current.locator('.version-changes').innerText()).toBe('end you gave: Dec 1, 2026 → none (it still ends where the next value begins)');
    expect(await page.locator('.fact-times').innerText()).not.toContain('End you gave');
    await screenshot(page, 'fact-kept-end-dropped');
  });

  it('True as of shows every value of a many-valued slot, each its own row', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const likes = page.getByTestId('asof-answer').filter({ has: page.locator('.asof-question', { hasText: 'me · likes' }) });
    await expect.poll(() => likes.count()).toBe(3);
    expect((await likes.locator('.asof-values').allInnerTexts()).sort()).toEqual(['coffee', 'miso soup', 'tea']);
    expect(await likes.locator('.asof-question').allInnerTexts()).toEqual(['me · likes (1 of 3)', 'me · likes (2 of 3)', 'me · likes (3 of 3)']);
  });

  it('the search status line says why vectors were not used once', async () => {
    const { page } = ui();
    await go(page, '#/facts');
    await page.getByPlaceholder(/Search facts/).fill('tea');
    await page.getByPlaceholder(/Search facts/).press('Enter');
    const status = page.locator('.result-count');
    await expect.poll(() => status.textContent()).toMatch(/^1 fact · /);
    const text = (await status.textContent()) ?? '';
    expect(text.match(/embedding model/g)).toHaveLength(1);
  });

  it('recommends one model, the best chat model that fits, and lists it first', async () => {
    const { page } = ui();
    await go(page, '#/models');
    const cards = page.locator('.catalogue-list [data-model-id]');
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-model-id')))).toEqual(['best-fits', 'small-fits', 'slow-one']);
    expect(await page.locator('.catalogue-list .badge.recommended').count()).toBe(1);
    expect(await cards.first().locator('.badge.recommended').textContent()).toBe('Recommended');
    await screenshot(page, 'models-recommended');
  });

  it('a download keeps its progress when you leave the Models screen and come back, and after a reload', async () => {
    const { page } = ui();
    const card = page.locator('[data-model-id="small-fits"]');
    await card.getByRole('button', { name: 'Download' }).click();
    const bar = card.locator('progress');
    const percent = async () => ((await bar.count()) > 0 ? Number(await bar.evaluate((el: HTMLProgressElement) => el.value)) : 0);
    await expect.poll(percent, { interval: 20, timeout: 20_000 }).toBeGreaterThan(50);

    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.asof-panel').count()).toBe(1);
    await go(page, '#/models');
    await expect.poll(percent).toBeGreaterThan(50);
    expect(await card.getByRole('button', { name: 'Cancel' }).count()).toBe(1);

    await page.reload();
    await page.locator('nav[aria-label="Main"]').waitFor();
    await expect.poll(percent).toBeGreaterThan(50);
    expect(ui().engine.models.activeDownloads().map((d) => d.id)).toEqual(['small-fits']);
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ui().engine.models.activeDownloads()).toEqual([]);
  });
});

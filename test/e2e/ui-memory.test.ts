/**
 * The memory screens in Chromium against `tempora serve`'s bridge (real engine, temporary data
 * directory): import a memory file → the timeline shows the bars → drag the as-of cursor and see
 * the answer change → edit a fact and see its versions → export and compare with the engine's.
 * Also: bad import files, known-at, search in Japanese, keyboard navigation, themes, thousands of
 * facts, the disconnected banner. Saves a screenshot of each screen.
 *
 * The user's zone is Asia/Tokyo ($TEMPORA_TZ; the browser itself runs in UTC): every time shown and
 * typed is read in Tokyo, and a fact's interval shows the precision it was said in.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MemoryExport } from '../../shared/memory-schema';
import { screenshot } from './helpers/screenshots';
import { seedExport } from './helpers/seed-memory';
import { asOfAnswer, dragAsOfTo } from './helpers/timeline';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, useUi } from './helpers/ui-session';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { formatInstant } from '../../shared/time-format';

let seedFile: string;
let seed: MemoryExport;

describe.skipIf(CHROMIUM_MISSING !== null)('the memory screens through the bridge', () => {
  // The engine runs in this process: the zone it reads and shows in is the user's, not the machine's.
  const ui = useUi({ zone: 'Asia/Tokyo', engine: { startWorker: false } });

  beforeAll(async () => {
    seedFile = join(ui().dir, 'seed-memory.json');
    seed = await seedExport(seedFile);
  });

  it('opens with the token, survives a reload, and the memory screens work without a model', async () => {
    const { page } = ui();
    // The token in the printed address is exchanged once for an HttpOnly cookie (electron/server).
    expect(page.url()).not.toContain('token=');
    await page.reload();
    await page.waitForLoadState('domcontentloaded');
    expect(page.url()).not.toContain('token=');
    expect(await page.evaluate(() => sessionStorage.getItem('tempora.bridgeToken'))).toBeNull();
    const cookie = (await page.context().cookies()).find((c) => c.name === `tempora_${ui().bridge.port}`);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await expect.poll(() => page.locator('.notice h2').textContent()).toBe('No chat model is loaded');
    await expect.poll(() => page.locator('.connection-banner').count()).toBe(0);
  });

  it('refuses a bad import file with the field named, then previews and imports the seed file', async () => {
    const { page } = ui();
    await go(page, '#/data');
    const bad = structuredClone(seed) as { facts: { valid_at: string }[] };
    bad.facts[0]!.valid_at = 'last tuesday';
    const badFile = join(ui().dir, 'bad.json');
    writeFileSync(badFile, JSON.stringify(bad));
    await page.getByLabel('Memory file (.json)').setInputFiles(badFile);
    // One sentence; the field it is about in the details behind the disclosure.
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('bad.json cannot be imported: not a valid Tempora export; the details say what is wrong.');
    expect(await page.locator('.error-text details pre').first().textContent()).toMatch(/^facts\.0\.valid_at: /);

    const notJson = join(ui().dir, 'not-json.json');
    writeFileSync(notJson, '{ "format": ');
    await page.getByLabel('Memory file (.json)').setInputFiles(notJson);
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/^not-json\.json cannot be imported: it is not JSON: line 1, column 13\b/);

    await page.getByLabel('Memory file (.json)').setInputFiles(seedFile);
    const preview = page.getByLabel('Import preview');
    await expect.poll(() => preview.textContent()).toContain(`${seed.facts.length} facts`);
    expect(await preview.textContent()).toContain(`${seed.entities.length} entities`);
    // What the file holds, and apart from it what an import would do with it.
    const total = seed.facts.length + seed.entities.length + seed.episodes.length + seed.conversations.length;
    expect(await preview.locator('p').first().textContent()).toBe('seed-memory.json holds:');
    expect(await preview.locator('.import-outcome').textContent()).toBe(`All of it is new here: importing adds ${total} records.`);
    await screenshot(page, 'export-import-seed');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Imported' }).textContent()).toContain(`Imported ${seed.facts.length} facts`);
    expect(ui().engine.memory.facts.list({ history: true })).toHaveLength(seed.facts.length);

    // The same file again: every id clashes, so importing needs "replace".
    await page.getByLabel('Memory file (.json)').setInputFiles(seedFile);
    await expect.poll(() => preview.locator('.import-outcome').textContent()).toBe(`All ${total} records already exist here (same ids): importing adds nothing new. Import refuses them unless you replace them.`);
    expect(await preview.textContent()).not.toContain('adds:');
    await screenshot(page, 'export-import-all-clash');
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    expect(await importButton.isDisabled()).toBe(true);
    await page.getByLabel(/Replace the existing records/).check();
    expect(await importButton.isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows one row per subject + predicate, each fact a bar, closed facts linked to their closers', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    const managerRow = page.locator('.tl-row[data-row="me · manager"]');
    await expect.poll(() => managerRow.locator('g.tl-bar').count()).toBe(2);
    const rows = new Set(seed.facts.map((f) => `${f.subject} · ${f.predicate}`));
    await expect.poll(() => page.locator('.tl-row').count()).toBe(rows.size);
    expect(await managerRow.locator('g.tl-bar.closed').getAttribute('aria-label')).toMatch(/^A: .*closed by “My manager changed to B\.”/);
    expect(await managerRow.locator('g.tl-bar.open').getAttribute('aria-label')).toMatch(/^B: .*still true/);
    expect(await managerRow.locator('path.tl-link').count()).toBe(1);
    expect(await page.locator('.tl-row[data-row="田中さん · works_at"] path.tl-link').count()).toBe(1);
  });

  it('drags the as-of cursor to 2026-09-10 (Tokyo) and the answer changes from B to A', async () => {
    const { page } = ui();
    expect(await asOfAnswer(page, 'me · manager')).toBe('B');
    await expect.poll(() => page.locator('.timeline-screen .screen-header').textContent()).toContain('Times in Asia/Tokyo');
    // The cursor snaps to Tokyo's days: the start of 10 September there is 15:00 UTC the day before.
    await dragAsOfTo(page, '2026-09-09T15:00:00.000Z');
    await expect.poll(() => page.locator('#asof-title').textContent()).toBe('True as of Sep 10, 2026');
    expect(await page.getByTestId('asof-handle').getAttribute('aria-valuetext')).toBe('as of Sep 10, 2026 (Asia/Tokyo)');
    expect(await page.locator('.tl-row[data-row="me · manager"] g.tl-bar.closed').getAttribute('aria-label')).toContain('Sep 1 – Sep 15, 2026');
    expect(await asOfAnswer(page, 'me · manager')).toBe('A');
    expect(await asOfAnswer(page, 'me · lives in')).toBe('東京');
    expect(await page.locator('.tl-row[data-row="me · manager"] g.tl-bar.asof').getAttribute('aria-label')).toMatch(/^A:/);
    // Zoomed in around the cursor for the picture, then back to everything.
    await page.locator('.tl-chart').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.locator('.tl-chart').blur();
    await screenshot(page, 'timeline-seed');
    await page.getByRole('button', { name: 'Fit' }).click();
    // The slider answers to the keyboard too: six days later (B came at 2026-09-15 10:00 in Tokyo), B.
    await page.getByTestId('asof-handle').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('#asof-title').textContent()).toBe('True as of Sep 16, 2026');
    expect(await asOfAnswer(page, 'me · manager')).toBe('B');
  });

  it('zooms and pans with buttons and keys, and shows the memory as known at an earlier moment', async () => {
    const { page } = ui();
    const span = async () => {
      const axis = page.locator('.tl-axis');
      return Number(await axis.getAttribute('data-to')) - Number(await axis.getAttribute('data-from'));
    };
    const fitted = await span();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await span()).toBeLessThan(fitted * 0.7);
    await page.locator('.tl-chart').focus();
    await page.keyboard.press('-');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('0');
    await expect.poll(span).toBeCloseTo(fitted, -3);

    // Ctrl + wheel zooms around the pointer; dragging the chart pans it.
    const body = (await page.locator('.tl-body').boundingBox())!;
    const from = async () => Number(await page.locator('.tl-axis').getAttribute('data-from'));
    await page.mouse.move(body.x + body.width * 0.6, body.y + 20);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await expect.poll(span).toBeLessThan(fitted * 0.8);
    const before = await from();
    await page.mouse.move(body.x + body.width * 0.6, body.y + body.height - 20);
    await page.mouse.down();
    await page.mouse.move(body.x + body.width * 0.3, body.y + body.height - 20, { steps: 5 });
    await page.mouse.up();
    await expect.poll(from).toBeGreaterThan(before);
    await page.getByRole('button', { name: 'Fit' }).click();

    // Text read in Tokyo, applied on Enter, shown back in the locale's order.
    const knownAt = page.getByLabel('Known at (Asia/Tokyo)');
    await knownAt.fill('2020-01-01 00:00');
    await knownAt.press('Enter');
    await expect.poll(() => page.locator('.tl-row').count()).toBe(0);
    await expect.poll(() => page.locator('.timeline-screen .screen-header').textContent()).toContain('as it was held at Jan 1, 2020.');
    expect(await knownAt.inputValue()).toBe('Jan 1, 2020');
    await page.getByRole('button', { name: 'Known now' }).click();
    await expect.poll(() => page.locator('.tl-row').count()).toBeGreaterThan(0);
  });

  it('edits a fact: a bad time shows the API error, a good edit makes a new version with the old one in its history', async () => {
    const { page } = ui();
    await page.locator('.tl-row[data-row="me · manager"] g.tl-bar.open').click();
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe('My manager changed to B.');
    await page.getByRole('button', { name: 'Edit' }).click();
    // The field starts as readable text in Tokyo, in the locale's order, and says how it is read.
    expect(await page.getByLabel('True from', { exact: true }).inputValue()).toBe('Sep 15, 2026');
    expect(await page.locator('.fact-form').textContent()).toContain('read in Asia/Tokyo');
    await page.getByLabel('True from', { exact: true }).fill('2026-09-31');
    await page.getByRole('button', { name: 'Save' }).click();
    // main's words, under the field they are about.
    const validField = page.locator('.fact-form .field', { has: page.getByLabel('True from', { exact: true }) });
    await expect.poll(() => validField.getByRole('alert').textContent()).toBe('True from: 2026-09-31 is not a date: September 2026 has 30 days');

    await page.getByLabel('Fact', { exact: true }).fill('My manager changed to B (Bob).');
    await page.getByLabel('True from', { exact: true }).fill('2026-09-14');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.fact-page h1').textContent()).toBe('My manager changed to B (Bob).');
    await expect.poll(() => page.locator('#versions-title').textContent()).toBe('Versions (2)');
    const versions = page.locator('.versions > li');
    // The newest version first: the replaced one is second.
    expect(await versions.nth(1).textContent()).toContain('My manager changed to B.');
    expect(await versions.nth(1).textContent()).toMatch(/replaced/);
    // A day, as it was typed: its precision is kept.
    expect(await page.locator('.fact-times').textContent()).toContain('since Sep 14, 2026 (still true)');
    expect(await page.locator('.fact-links').textContent()).toContain('My manager is A.');
    expect(page.url()).toContain(`#/facts/`);
    await screenshot(page, 'fact-page-seed');

    // The timeline follows: A now ends on 2026-09-14.
    await go(page, '#/timeline');
    await page.getByLabel('As of (Asia/Tokyo)', { exact: true }).fill('2026-09-14');
    await page.getByLabel('As of (Asia/Tokyo)', { exact: true }).press('Enter');
    // B was the answer at the 16th too: the 14th's own answer, once the panel is for the 14th.
    await expect.poll(() => page.locator('#asof-title').textContent()).toBe('True as of Sep 14, 2026');
    await expect.poll(() => asOfAnswer(page, 'me · manager')).toBe('B');
    await page.getByLabel('As of (Asia/Tokyo)', { exact: true }).fill('2026-09-13');
    await page.getByLabel('As of (Asia/Tokyo)', { exact: true }).press('Enter');
    await expect.poll(() => asOfAnswer(page, 'me · manager')).toBe('A');
  });

  it('exports the memory as tempora-memory-YYYY-MM-DD.json, equal to the engine’s export', async () => {
    const { page } = ui();
    await go(page, '#/data');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save export…' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^tempora-memory-\d{4}-\d{2}-\d{2}\.json$/);
    const path = await download.path();
    const saved = JSON.parse(readFileSync(path, 'utf8')) as MemoryExport;
    const engineExport = ui().engine.memory.transfer.export();
    const { exported_at: a, ...savedRest } = saved;
    const { exported_at: b, ...engineRest } = engineExport;
    expect(typeof a).toBe('string');
    expect(typeof b).toBe('string');
    expect(savedRest).toEqual(engineRest);
    expect(saved.facts.some((f) => f.fact === 'My manager changed to B (Bob).')).toBe(true);
  });

  it('closes a fact at a time in words (a bad time shows the API error) and forgets one after a warning that it cannot be undone', async () => {
    const { page } = ui();
    const alice = ui().engine.memory.facts.list({ subject: 'Alice' })[0]!;
    await go(page, `#/facts/${alice.id}`);
    await page.getByRole('button', { name: 'Close…' }).click();
    // It starts as today's date in Tokyo, in the locale's order (en-US here).
    expect(await page.getByLabel('No longer true from').inputValue()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await page.getByLabel('No longer true from').fill('2026-02-30');
    await page.getByRole('button', { name: 'Close fact' }).click();
    await expect.poll(() => page.locator('.fact-form [role="alert"]').textContent()).toBe('No longer true from: 2026-02-30 is not a date: February 2026 has 28 days');
    // A phrase is sent as typed; main reads it in Tokyo, as precisely as it was said (a month).
    await page.getByLabel('No longer true from').fill('November 2026');
    await page.getByRole('button', { name: 'Close fact' }).click();
    await expect.poll(() => page.locator('.fact-page .note').textContent()).toBe('Closed: true Mar 15 – November 2026.');
    expect(await page.locator('.fact-header .badges').textContent()).toContain('ended November 2026');
    expect(await page.locator('.fact-times').textContent()).toContain('Mar 15 – November 2026');
    const closed = ui().engine.memory.facts.list({ subject: 'Alice', history: true }).find((f) => f.invalid_at !== null && f.expired_at === null);
    expect([closed?.invalid_at, closed?.invalid_at_precision]).toEqual(['2026-10-31T15:00:00.000Z', 'month']);
    expect(ui().engine.memory.facts.list({ subject: 'Alice' })).toHaveLength(0);

    const coffee = ui().engine.memory.facts.list({}).find((f) => f.object === 'coffee')!;
    await go(page, `#/facts/${coffee.id}`);
    await page.getByRole('button', { name: 'Forget…' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('This cannot be undone.');
    await dialog.getByRole('button', { name: 'Forget for ever' }).click();
    await expect.poll(() => page.locator('.facts-screen h1').count()).toBe(1);
    expect(ui().engine.memory.facts.list({ history: true }).some((f) => f.object === 'coffee')).toBe(false);
  });

  it('searches facts in Japanese, filters history, and opens a fact with the keyboard', async () => {
    const { page } = ui();
    await page.keyboard.press('Alt+3');
    await expect.poll(() => page.locator('.facts-screen h1').textContent()).toBe('Facts');
    await page.getByPlaceholder(/Search facts/).fill('抹茶');
    await expect.poll(() => page.locator('.fact-row').first().textContent()).toContain('私は抹茶が好きです。');
    await page.getByPlaceholder(/Search facts/).fill('');
    await page.getByText('History', { exact: true }).click();
    const countOf = async () => Number(/^(\d+) facts?/.exec((await page.locator('.result-count').textContent()) ?? '')?.[1] ?? -1);
    await expect.poll(countOf).toBeGreaterThan(seed.facts.length);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(page, 'facts-seed');
    // The interval of a fact said in days, in Tokyo's days (in UTC it would be 9 to 13 July).
    await page.getByPlaceholder(/Search facts/).fill('京都');
    const kyoto = page.locator('.fact-row', { hasText: '京都に行きました。' });
    await expect.poll(() => kyoto.first().locator('.interval').textContent()).toBe('Jul 10 – Jul 14, 2026');
    expect(await page.locator('.facts-screen .screen-header').textContent()).toContain('Times in Asia/Tokyo');
    await page.getByPlaceholder(/Search facts/).fill('');
    await page.getByText('Current', { exact: true }).click();
    await page.getByLabel('As of (Asia/Tokyo)').fill('2026-09-10');
    await page.getByLabel('As of (Asia/Tokyo)').press('Enter');
    // The History list, kept on screen until the new answer comes, holds A too: wait for A without B.
    await expect
      .poll(async () => {
        const listed = (await page.locator('.fact-list').textContent()) ?? '';
        return listed.includes('My manager is A.') && !listed.includes('My manager changed to B');
      })
      .toBe(true);
    await page.getByRole('button', { name: 'Now', exact: true }).click();
    await page.locator('.facts-screen input[list="entity-names"]').fill('田中さん');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^1 fact\b/);
    await page.locator('.facts-screen input[list="entity-names"]').fill('');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^[2-9] facts/);
    await page.getByRole('list', { name: 'Facts' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.fact-page h1').count()).toBe(1);
  });

  it('has light and dark themes: the system’s by default, or the toggle’s', async () => {
    const { page } = ui();
    await go(page, '#/timeline');
    await page.locator('.tl-row').first().waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(background).not.toBe(light);
    await screenshot(page, 'timeline-dark-seed');
    await go(page, '#/facts');
    await page.locator('.fact-row').first().waitFor();
    await screenshot(page, 'facts-dark');
    await page.getByRole('button', { name: /Change theme/ }).click(); // system → light
    await expect.poll(background).toBe(light);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.getByRole('button', { name: /Change theme/ }).click(); // light → dark
    await expect.poll(background).not.toBe(light);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(background).not.toBe(light); // the choice wins over the system
    await page.getByRole('button', { name: /Change theme/ }).click(); // dark → system
    await expect.poll(background).toBe(light);
  });

  it('changes the time zone in Settings, and every time follows; "Use system zone" goes back', async () => {
    const { page } = ui();
    const kyoto = ui().engine.memory.facts.list({ history: true }).find((f) => f.object === '京都')!;
    await go(page, '#/settings');
    const current = page.getByTestId('time-zone-current');
    await expect.poll(() => current.textContent()).toBe('Times are shown and read in Asia/Tokyo, from the TEMPORA_TZ environment variable.');
    const zone = page.locator('.time-zone-setting').getByLabel('Zone');
    await zone.fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Use this zone' }).click();
    await expect.poll(() => page.locator('.time-zone-setting [role="alert"]').textContent()).toMatch(/unknown time zone "Mars\/Olympus"/);
    await zone.fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Use this zone' }).click();
    await expect.poll(() => current.textContent()).toBe('Times are shown and read in Europe/Berlin, from your setting.');
    // Moments move with the zone: when the fact was recorded, to the minute.
    await go(page, `#/facts/${kyoto.id}`);
    await expect.poll(() => page.locator('.fact-page').textContent()).toContain(formatInstant(kyoto.created_at, { timeZone: 'Europe/Berlin', locale: 'en-US' }));
    expect(await page.locator('.fact-page').textContent()).toContain('Times in Europe/Berlin');
    // And days: Tokyo's 10 July began at 17:00 on the 9th in Berlin.
    expect(await page.locator('.fact-times').textContent()).toContain('Jul 9 – Jul 13, 2026');
    await go(page, '#/settings');
    await page.getByRole('button', { name: 'Use system zone' }).click();
    await expect.poll(() => current.textContent()).toBe('Times are shown and read in Asia/Tokyo, from the TEMPORA_TZ environment variable.');
    await go(page, `#/facts/${kyoto.id}`);
    await expect.poll(() => page.locator('.fact-times').textContent()).toContain('Jul 10 – Jul 14, 2026');
  });

  it('stays usable with thousands of facts: only the rows in view are in the page', async () => {
    const { page } = ui();
    const synthetic = generateSyntheticMemory({ observations: 3000 });
    ui().engine.memory.facts.observe(synthetic.observations, { where: 'synthetic' });
    const total = ui().engine.memory.facts.list({}).length + 0;
    expect(total).toBeGreaterThan(500);
    // A fresh page load through the printed address (the token is exchanged for the cookie again).
    await page.goto(`${ui().bridge.url}#/timeline`);
    const started = Date.now();
    // Counts are written as the locale writes them (en-US: "1,203 rows"); "0 rows" shows until the window comes.
    const rowCount = async () => {
      const text = (await page.locator('.tl-corner').textContent()) ?? '';
      return /^\d{1,3}(,\d{3})* rows$/.test(text) ? Number(text.split(' ')[0]!.replaceAll(',', '')) : Number.NaN;
    };
    await expect.poll(rowCount, { timeout: 20_000 }).toBeGreaterThan(200);
    // So many rows: grouped by subject, the groups collapsed, the user's first.
    await expect.poll(() => page.locator('.tl-group').first().getAttribute('data-group')).toBe('me');
    expect(await page.locator('.tl-row, .tl-group').count()).toBeLessThan(60);
    const lastGroup = await page.locator('.tl-group').last().getAttribute('data-group');
    await page.locator('.tl-body').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => page.locator('.tl-group').last().getAttribute('data-group')).not.toBe(lastGroup);
    expect(await page.locator('.tl-row, .tl-group').count()).toBeLessThan(60);
    expect(Date.now() - started).toBeLessThan(15_000);
    await screenshot(page, 'timeline-many');
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^\d{1,3}(,\d{3})+ facts/);
    expect(await page.locator('.fact-row').count()).toBeLessThan(40);
  });

  it('shows a clear banner when the bridge goes away', async () => {
    const { page } = ui();
    await ui().bridge.close();
    await expect.poll(() => page.locator('.connection-banner').textContent(), { timeout: 10_000 }).toMatch(/Disconnected from Tempora|Reconnecting/);
    expect(ui().browser.problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED|net::/.test(p))).toEqual([]);
  });
});


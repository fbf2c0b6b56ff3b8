/**
 * A change refreshes only what it touched: with a fact's page open, learning something about
 * another subject does not ask the bridge for that page again; a change of the fact itself does,
 * once. The screens ask for what they show: pages of facts, the timeline's window. The bridge's
 * calls are read from the WebSocket frames the page sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'playwright-core';
import { CHROMIUM_MISSING } from './helpers/browser';
import { go, startUi, type UiSession } from './helpers/ui-session';

let ui: UiSession;

describe.skipIf(CHROMIUM_MISSING !== null)('refreshing only what changed', () => {
  const sent: { name: string; request: unknown }[] = [];
  let memoryEvents = 0;

  beforeAll(async () => {
    ui = await startUi({
      engine: { startWorker: false },
      seed: (engine) => {
        engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' }]);
        engine.memory.facts.observe([{ subject: 'Sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea.', reference_time: '2026-09-02T00:00:00Z' }]);
      },
    });
    const watch = (ws: WebSocket) => {
      ws.on('framesent', (frame) => {
        const message = JSON.parse(String(frame.payload)) as { type?: string; name?: string; request?: unknown };
        if (message.type === 'call' && message.name) sent.push({ name: message.name, request: message.request });
      });
      ws.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"memoryChanged"')) memoryEvents += 1;
      });
    };
    ui.page.on('websocket', watch);
    // A fresh load, so the page's connection is the one watched.
    await ui.page.reload();
    await ui.page.locator('nav[aria-label="Main"]').waitFor();
  });

  afterAll(async () => {
    await ui?.close();
  });

  it("does not fetch a fact's page again for a change about something else", async () => {
    const { page, engine } = ui;
    const manager = engine.memory.facts.list({ predicate: 'manager' })[0]!;
    const detailsOf = () => sent.filter((c) => c.name === 'factDetails' && (c.request as { id?: string }).id === manager.id).length;
    await go(page, `#/facts/${manager.id}`);
    await expect.poll(() => page.locator('.fact-page').textContent()).toContain('My manager is A.');
    expect(detailsOf()).toBe(1);

    // Something about Sato, and a message that teaches nothing: the page is left alone.
    const before = memoryEvents;
    engine.memory.facts.observe([{ subject: 'Sato', predicate: 'likes', object: 'coffee', fact: 'Sato likes coffee.', reference_time: '2026-09-03T00:00:00Z' }]);
    const { episode } = engine.memory.messages.append({ role: 'user', content: 'Nice weather.', time: '2026-09-04T00:00:00Z' });
    engine.memory.messages.applyIngestion(engine.memory.jobs.claimNext()!.id, { episodeId: episode.id, referenceTime: episode.reference_time, confirmedEpisodeId: null, facts: [] }, { modelCalls: 1, promptTokens: 1, completionTokens: 1 });
    await expect.poll(() => memoryEvents).toBe(before + 3);

    // A change of this fact: the page is fetched again, once — the changes before it asked for nothing.
    engine.memory.facts.edit(manager.id, { fact: 'My manager is A-san.' });
    await expect.poll(() => page.locator('.fact-page').textContent()).toContain('My manager is A-san.');
    expect(detailsOf()).toBe(2);
  });

  it('asks the Facts screen for pages, with the filters in the request', async () => {
    const { page } = ui;
    await go(page, '#/facts');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^3 facts/);
    await page.locator('.facts-screen input[list="entity-names"]').fill('Sato');
    await expect.poll(() => page.locator('.result-count').textContent()).toMatch(/^2 facts/);
    const lists = sent.filter((c) => c.name === 'listFacts').map((c) => c.request as Record<string, unknown>);
    expect(lists.every((r) => typeof r.limit === 'number' && r.limit <= 200)).toBe(true);
    expect(lists.some((r) => r.entity === 'Sato')).toBe(true);
  });

  it('asks the timeline for the rows in view × a time window, never the whole history', async () => {
    const { page } = ui;
    const before = sent.length;
    await go(page, '#/timeline');
    await expect.poll(() => page.locator('.tl-corner').textContent()).toBe('2 rows');
    await expect.poll(() => page.locator('.tl-row[data-row="Sato · likes"] g.tl-bar').count()).toBe(2);
    const calls = sent.slice(before);
    const windows = calls.filter((c) => c.name === 'timelineWindow').map((c) => c.request as Record<string, unknown>);
    expect(windows.length).toBeGreaterThan(0);
    expect(windows.every((r) => typeof r.rowLimit === 'number' && r.rowLimit <= 100 && typeof r.from === 'string' && typeof r.to === 'string')).toBe(true);
    // The as-of panel asks for what is true at the cursor, with a limit; nothing asks for every version.
    expect(calls.filter((c) => c.name === 'listFacts').every((c) => typeof (c.request as { limit?: number }).limit === 'number')).toBe(true);
    expect(calls.some((c) => c.name === 'listFacts' && (c.request as { history?: boolean }).history === true)).toBe(false);
  });
});

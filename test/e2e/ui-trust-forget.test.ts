/**
 * Forget means forgotten, in Chromium against the bridge (real engine, real SQLite): the Forget
 * dialog lists the messages the fact came from and what happens to each (deleted with it, or kept
 * and why), Cancel has the focus so Enter deletes nothing, and "also delete the messages it came
 * from" leaves their text in neither the export nor the search index.
 */
import { describe, expect, it } from 'vitest';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import type { TemporaEngine } from '../../electron/engine/index';
import type { Memory } from '../../electron/memory/index';
import { scriptedModel } from '../fixtures/scripted-model';
import { CHROMIUM_MISSING } from './helpers/browser';
import { screenshot } from './helpers/screenshots';
import { go, useUi } from './helpers/ui-session';

const A = 'My manager is A.';
const TEA = 'My manager is A and I like tea.';
const manager = { subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' as const };

async function learnTwoMessages(engine: TemporaEngine): Promise<void> {
  const memory = engine.memory;
  const model = scriptedModel({ extract: { [A]: [manager], [TEA]: [manager, { subject: 'me', subject_type: 'user', predicate: 'likes', object: 'tea', object_type: 'thing', fact: 'I like tea.' }] } });
  const worker = new IngestionWorker(memory, { model: () => model });
  const conversation = memory.conversations.create('Work').id;
  memory.messages.append({ role: 'user', content: A, time: '2026-09-01T10:00:00Z', conversation });
  memory.messages.append({ role: 'user', content: TEA, time: '2026-09-02T10:00:00Z', conversation });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
}

/** Every message of every conversation, oldest first. */
const messagesOf = (memory: Memory) => memory.conversations.list().flatMap((c) => memory.episodes.ofConversation(c.id));

describe.skipIf(CHROMIUM_MISSING !== null)('forget a fact and the messages it came from', () => {
  const ui = useUi({ zone: 'Asia/Tokyo', env: { LANCEDB_LOG: 'error' }, engine: { startWorker: false }, seed: learnTwoMessages });

  it('lists each source with its fate, focuses Cancel so Enter deletes nothing, then deletes the fact and its only-source message', async () => {
    const { page, engine } = ui();
    const fact = engine.memory.facts.list().find((f) => f.predicate === 'manager')!;
    const [onlyA, withTea] = messagesOf(engine.memory);
    await go(page, `#/facts/${encodeURIComponent(fact.id)}`);
    await page.getByRole('button', { name: 'Forget…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget this fact?' });
    await expect.poll(() => dialog.locator('.forget-sources li').count()).toBe(2);
    expect(await dialog.locator(`li[data-source="${withTea!.id}"]`).textContent()).toContain('kept: also the source of 1 other fact');
    expect(await dialog.locator(`li[data-source="${onlyA!.id}"]`).textContent()).toContain('kept (the message stays in its conversation)');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');

    // Enter on the focused button cancels: nothing is deleted.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(engine.memory.facts.get(fact.id)).toBeDefined();

    await page.getByRole('button', { name: 'Forget…' }).click();
    await dialog.getByLabel(/Also delete the messages it came from/).check();
    expect(await dialog.locator(`li[data-source="${onlyA!.id}"]`).textContent()).toContain('deleted with the fact');
    expect(await dialog.locator(`li[data-source="${withTea!.id}"]`).textContent()).toContain('kept: also the source of 1 other fact');
    await screenshot(page, 'forget-with-sources');
    await dialog.getByRole('button', { name: 'Forget it and 1 message' }).click();
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/facts');

    expect(engine.memory.facts.get(fact.id)).toBeUndefined();
    expect(engine.memory.episodes.byId(onlyA!.id)).toBeUndefined();
    expect(engine.memory.episodes.byId(withTea!.id)).toBeDefined();
    const exported = JSON.stringify(engine.memory.transfer.export());
    expect(exported).not.toContain(`"${A}"`);
    expect(engine.memory.facts.search('manager').filter((h) => h.fact.predicate === 'manager')).toEqual([]);
  });
});

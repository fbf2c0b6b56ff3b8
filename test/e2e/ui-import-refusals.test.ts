/**
 * The Export / Import screen refusing a file in plain words, before anything is changed: a JSON file
 * that is not a Tempora memory export (`{"nope": 1}`) is said to be none, in one sentence with no
 * details to point to; an export cut down to one conversation that keeps its claims is refused by
 * the preview in the import's own words (the claim, the fact it stands behind, that the file lacks
 * it), not previewed as "adds 0 facts … 1 conversation" and then refused by the import.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING } from './helpers/browser';
import { seedMemory } from './helpers/seed-memory';
import { go, useUi } from './helpers/ui-session';

describe.skipIf(CHROMIUM_MISSING !== null)('an import the screen refuses, in plain words', () => {
  const ui = useUi({ zone: 'UTC', engine: { startWorker: false }, seed: seedMemory });

  /** Picks `name` holding `text` in the Import panel; gives the panel. */
  async function pick(name: string, text: string) {
    const { page, dir } = ui();
    const file = join(dir, name);
    writeFileSync(file, text);
    await go(page, '#/data');
    const panel = page.getByRole('region', { name: 'Import', exact: true });
    await panel.getByLabel('Memory file (.json)').setInputFiles(file);
    return panel;
  }

  it('a file that is not a Tempora memory export is said to be none, in one sentence without details', async () => {
    const panel = await pick('bad.json', '{"nope":1}');
    const alert = panel.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toBe('bad.json cannot be imported: not a Tempora memory export: it has no "format": "tempora.memory", which every export has');
    expect(await panel.locator('.error-text details').count()).toBe(0);
    expect(await panel.getByLabel('Import preview').count()).toBe(0);
  });

  it('an export cut down to one conversation that keeps its claims is refused by the preview, in the import’s words', async () => {
    const { engine } = ui();
    const doc = engine.memory.transfer.export();
    expect(doc.claims.length).toBeGreaterThan(0);
    const before = JSON.stringify({ ...doc, exported_at: null });
    const cut = { ...doc, conversations: doc.conversations.slice(0, 1), episodes: [], entities: [], facts: [] };
    const panel = await pick('cut.json', JSON.stringify(cut, null, 2));
    const alert = panel.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toBe(`cut.json cannot be imported: claim 1 (claims[0]) stands behind fact ${doc.claims[0]!.fact_id}, which this file does not hold: the file is incomplete or was edited`);
    expect(await panel.locator('.error-text details').count()).toBe(0);
    // No preview, so no Import (nor Replace) to press: the memory is as it was.
    expect(await panel.getByLabel('Import preview').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    expect(JSON.stringify({ ...engine.memory.transfer.export(), exported_at: null })).toBe(before);
  });
});

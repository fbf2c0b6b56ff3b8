/**
 * The Models screen's download card when a download fails with words that hold "cancel" (a file
 * name, say): said as the failure it is (ErrorText, an alert), never as
 * "Download cancelled". The download call is refused over the routed WebSocket
 * (helpers/refused-calls.ts) in the engine's shapes for a failed download — a model error with its
 * code as detail (api-errors.ts), and an internal error with words only (an engine of before, or a
 * failure outside the download's own) — so no server or file is needed. A real cancel is
 * ui-models.test.ts's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueModel } from '../../electron/llm/model-catalogue';
import { CHROMIUM_MISSING } from './helpers/browser';
import { routeRefusals, type RefusedCalls } from './helpers/refused-calls';
import { go, useUi } from './helpers/ui-session';

const MESSAGE = 'Download of cancel-notes.gguf failed: checksum mismatch';
const catalogue: CatalogueModel[] = [
  { id: 'cancel-notes', name: 'Cancel notes', role: 'chat', uri: 'http://127.0.0.1:9/cancel-notes.gguf', fileName: 'cancel-notes.gguf', sizeBytes: 1_000_000, sizeIsExact: false, sha256: null, ramBytes: 2_000_000, contextLength: 2048, notes: 'A model whose file name holds “cancel”.', fitFor: () => 'fits' },
];

describe.skipIf(CHROMIUM_MISSING !== null)('a download that failed with “cancel” in its words', () => {
  let calls: RefusedCalls;
  const ui = useUi({ engine: { catalogue, startWorker: false }, shotPrefix: 'models-failed' });

  beforeAll(async () => {
    calls = await routeRefusals(ui().page);
  });

  it.each([
    ['a model error, its code as detail', { code: 'model' as const, error: MESSAGE, detail: 'checksum_mismatch' }],
    ['an internal error, words only', { code: 'internal' as const, error: MESSAGE }],
  ])('is said as a failure, not as cancelled: %s', async (_, refusal) => {
    const { page } = ui();
    calls.refuse((call) => (call.name === 'downloadModel' ? refusal : null));
    const before = calls.refused.length;
    await go(page, '#/models');
    const card = page.locator('[data-model-id="cancel-notes"]');
    await card.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => calls.refused.length).toBe(before + 1);
    const alert = card.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await card.textContent()).not.toContain('Download cancelled');
    // The failure in its own words (a plain sentence: ErrorText shows it as it is).
    expect(await alert.textContent()).toBe(MESSAGE);
    // Still offered again, from the keyboard too.
    const download = card.getByRole('button', { name: 'Download' });
    await download.focus();
    expect(await download.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

/**
 * The Export / Import screen's import of an uploaded export (engine/import-upload-handlers.ts),
 * through the API's own calls: the staged file is previewed and imported record by record, the
 * import telling its progress (reading while the file is checked, up to the whole file, then
 * importing once as the write begins), and a cancel while it is checked writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiHandlers, dispatchCall, TemporaEngine } from '../../electron/engine/index';
import type { ApiEventEnvelope } from '../../shared/api-contract';
import { syntheticExport } from '../bench/synthetic-export';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';

const dirs: string[] = [];
const engines: TemporaEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close(2_000);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function screen() {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-import-upload-'));
  dirs.push(dir);
  const engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  engines.push(engine);
  const handlers = createApiHandlers(engine);
  const call = (name: string, request: unknown) => dispatchCall(handlers, name, request) as Promise<Record<string, unknown>>;
  const progress: { phase: string; bytes: number; totalBytes: number }[] = [];
  engine.onEvent((event: ApiEventEnvelope) => {
    if (event.name === 'importUploadProgress') progress.push(event.payload);
  });
  // One chunk: the document of 1,500 observations (2.4 MB: nine pieces of the reader), base64 as the page sends it.
  const text = JSON.stringify(syntheticExport(generateSyntheticMemory({ observations: 1500, seed: 7 }), 1500), null, 2);
  const { uploadId } = (await call('uploadImportFile', { uploadId: null, offset: 0, data: Buffer.from(text).toString('base64') })) as { uploadId: string };
  return { engine, call, progress, uploadId, bytes: Buffer.byteLength(text) };
}

describe('the screen imports an uploaded export record by record', () => {
  it('previews and imports it, telling how far it is read, then that it is written', async () => {
    const { engine, call, progress, uploadId, bytes } = await screen();
    expect(await call('previewImportUpload', { uploadId })).toMatchObject({ valid: true, facts: expect.any(Number), clashes: 0 });
    progress.length = 0;
    const summary = await call('importUpload', { uploadId });
    expect(summary.facts).toBeGreaterThan(1500);
    expect(engine.memory.facts.list({ limit: 1 }).length).toBe(1);
    const reading = progress.filter((p) => p.phase === 'reading');
    const importing = progress.filter((p) => p.phase === 'importing');
    expect(reading.at(-1)).toEqual({ uploadId, phase: 'reading', bytes, totalBytes: bytes });
    expect(importing.length).toBeGreaterThan(0);
    expect(progress.indexOf(importing[0]!)).toBe(reading.length);
  });

  it('cancelled while the file is checked, it writes nothing and says so', async () => {
    const { engine, call, uploadId } = await screen();
    const checking = new Promise<void>((resolve) => engine.onEvent((event) => event.name === 'importUploadProgress' && resolve()));
    const imported = call('importUpload', { uploadId });
    // The first progress event: the file is being checked; the page's cancel comes now.
    await checking;
    await call('cancelImportUpload', { uploadId });
    await expect(imported).rejects.toThrow('the import was cancelled');
    expect(engine.memory.facts.list({ limit: 1, history: true })).toEqual([]);
  });
});

/**
 * An export imported the way the Export / Import screen imports it (issue 25 item 9), without the
 * browser: the synthetic memory of `npm run bench` (default 1M observations) written as a pretty
 * JSON export file, then sent through the API's own calls (dispatchCall, as IPC and the bridge do)
 * in the page's 4 MiB base64 chunks (uploadImportFile), previewed (previewImportUpload: the staged
 * file read record by record) and imported (importUpload) into an empty memory. Prints the file's
 * size, the time of each step, the longest the event loop was held while the preview read the
 * file, what was stored and the peak RSS.
 *
 *   npm run bench:upload -- [--observations 1000000] [--seed 42]
 *
 * Measured 2 Dec 2026 on two shared cores (load falling from ~8 to ~1): 1M observations, a
 * 1,506 MiB file of 1,045,641 facts: upload (377 chunks) 89 s, preview 61 s (the event loop held at
 * most 262 ms), import 151 s (155 s with the background checkpoint), peak RSS 4.1 GiB (this
 * process also holds the generated document). 100k (150 MiB, load ~20): 18 s, 24 s, 54 s, 871 MiB.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApiHandlers, dispatchCall, TemporaEngine } from '../../electron/engine/index';
import { CHAT_UPLOAD_CHUNK_BYTES } from '../../shared/chat-import';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { syntheticExport } from './synthetic-export';
import { peakResidentBytes } from './stats';

const { values } = parseArgs({ options: { observations: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '42' } } });
const observations = Number(values.observations);
const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

/** The document as JSON.stringify(doc, null, 2) would write it, one record at a time (a 1M export is longer than a string can be). */
function writeExport(path: string, doc: object): void {
  const fd = openSync(path, 'w');
  const members = doc as Record<string, unknown>;
  const keys = Object.keys(members);
  writeSync(fd, '{\n');
  keys.forEach((key, k) => {
    const value = members[key];
    const tail = k < keys.length - 1 ? ',\n' : '\n';
    if (!Array.isArray(value) || value.length === 0) {
      writeSync(fd, `  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${tail}`);
      return;
    }
    writeSync(fd, `  ${JSON.stringify(key)}: [\n`);
    value.forEach((item, i) => writeSync(fd, `    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}${i < value.length - 1 ? ',' : ''}\n`));
    writeSync(fd, `  ]${tail}`);
  });
  writeSync(fd, '}\n');
  closeSync(fd);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-upload-bench-'));
  try {
    let start = performance.now();
    const doc = syntheticExport(generateSyntheticMemory({ observations, seed: Number(values.seed) }));
    const file = join(dir, 'export.json');
    writeExport(file, doc);
    const size = statSync(file).size;
    const counts = { facts: doc.facts.length, entities: doc.entities.length, episodes: doc.episodes.length };
    console.log(`export of ${observations.toLocaleString('en')} observations: ${(size / 2 ** 20).toFixed(1)} MiB, ${counts.facts.toLocaleString('en')} facts (written in ${seconds(start)})`);

    const engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
    const handlers = createApiHandlers(engine);
    const call = (name: string, request: unknown) => dispatchCall(handlers, name, request) as Promise<Record<string, unknown>>;

    start = performance.now();
    const fd = openSync(file, 'r');
    const chunk = Buffer.alloc(CHAT_UPLOAD_CHUNK_BYTES);
    let uploadId: string | null = null;
    for (let offset = 0; offset < size; offset += CHAT_UPLOAD_CHUNK_BYTES) {
      const n = readSync(fd, chunk, 0, CHAT_UPLOAD_CHUNK_BYTES, offset);
      uploadId = (await call('uploadImportFile', { uploadId, offset, data: chunk.subarray(0, n).toString('base64') })).uploadId as string;
    }
    closeSync(fd);
    console.log(`upload: ${Math.ceil(size / CHAT_UPLOAD_CHUNK_BYTES)} chunks in ${seconds(start)}`);

    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    start = performance.now();
    const preview = await call('previewImportUpload', { uploadId });
    loop.disable();
    console.log(`preview: ${seconds(start)} (valid: ${String(preview.valid)}, ${Number(preview.facts).toLocaleString('en')} facts); longest event-loop hold ${(loop.max / 1e6).toFixed(0)} ms`);

    start = performance.now();
    const summary = await call('importUpload', { uploadId });
    const imported = seconds(start);
    await engine.memory.settled();
    console.log(`import: ${imported} (${seconds(start)} with the background checkpoint); stored ${Number(summary.facts).toLocaleString('en')} facts, ${Number(summary.episodes).toLocaleString('en')} messages`);
    console.log(`peak RSS ${(peakResidentBytes() / 2 ** 20).toFixed(0)} MiB`);
    await engine.close(2_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

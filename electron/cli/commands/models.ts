/**
 * `tempora models` lists the recommended models with how well each fits this machine;
 * `tempora models pull ID` downloads one (progress bar, resumable, size and checksum verified).
 * Neither opens the store: a listing makes nothing, and a pull makes only the models directory (and
 * the memory directory above it), taken back when the download fails before a byte of it is kept.
 */
import { existsSync, rmdirSync } from 'node:fs';
import { totalmem } from 'node:os';
import { modelsPath } from '../../engine/engine-files';
import type { CommandContext, CommandSpec } from '../command';
import { InputError, UsageError } from '../errors';
import { leaveAsFound, prepareForWrite } from '../memory-dir';
import { printJson, printLines, progressLine } from '../output';
import { formatBytes } from '../../../shared/format-bytes';

const FIT_TEXT = { fits: 'fits', may_be_slow: 'may be slow', wont_fit: "won't fit" } as const;

export const modelsCommand: CommandSpec = {
  name: 'models',
  summary: 'list recommended models for this machine, or download one (models pull ID)',
  synopsis: 'models [pull ID]',
  description: ['Models are downloaded to <data dir>/models. An interrupted download resumes where it stopped.'],
  options: {},
  positionals: { min: 0, max: 2, name: 'pull ID' },
  async run(ctx) {
    const [verb, id] = ctx.positionals;
    if (verb !== undefined && verb !== 'pull') throw new UsageError(`models: unknown subcommand ${JSON.stringify(verb)} (use: models, models pull ID)`, 'models');
    if (verb === 'pull' && id === undefined) throw new UsageError('models pull needs ID', 'models');
    // Loaded on demand: the quick commands never load the model runtime the downloader needs.
    const catalogue = await import('../../engine/model-manager');
    if (verb === undefined) {
      const entries = catalogue.catalogueEntries(modelsPath(ctx.dataDir));
      if (ctx.json) return printJson(ctx.io, entries);
      printLines(ctx.io, [
        `Models for this machine (${formatBytes(totalmem())} RAM); download with 'tempora models pull ID':`,
        ...entries.map((e) => `  ${e.id.padEnd(28)} ${e.role.padEnd(9)} ${formatBytes(e.sizeBytes).padStart(9)}  ${FIT_TEXT[e.fit].padEnd(11)} ${e.path ? 'downloaded' : e.partial ? 'partial (pull resumes)' : ''}${e.recommended ? '  ← recommended' : ''}`.trimEnd()),
      ]);
      return;
    }
    let model;
    try {
      model = catalogue.catalogueModel(id!);
    } catch (error) {
      throw new InputError((error as Error).message);
    }
    const path = await pull(ctx, model, catalogue.downloadCatalogueModel);
    if (ctx.json) return printJson(ctx.io, { id: model.id, path });
    printLines(ctx.io, [`Downloaded ${model.name} to ${path}`]);
  },
};

type Catalogue = typeof import('../../engine/model-manager');
type CatalogueModel = ReturnType<Catalogue['catalogueModel']>;

/**
 * Downloads into <data dir>/models with a bar rewritten in place on a terminal (a log file or a pipe
 * gets only the answer). A failed download keeps what it fetched, for the next pull to resume; the
 * directories this run made go when they hold nothing.
 */
async function pull(ctx: CommandContext, model: CatalogueModel, download: Catalogue['downloadCatalogueModel']): Promise<string> {
  const dir = ctx.memoryDir;
  const made = prepareForWrite(dir);
  const modelsDir = modelsPath(dir.path);
  const madeModelsDir = !existsSync(modelsDir);
  const line = progressLine(ctx.io);
  let last = 0;
  try {
    return await download(model, modelsDir, (p) => {
      if (ctx.json || p.totalBytes === 0) return;
      const now = Date.now();
      if (now - last < 200 && p.downloadedBytes < p.totalBytes) return;
      last = now;
      const share = p.downloadedBytes / p.totalBytes;
      const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
      line.show(`${p.phase === 'verifying' ? 'verifying ' : 'downloading'} [${bar}] ${(share * 100).toFixed(1)}% of ${formatBytes(p.totalBytes)}`);
    });
  } catch (error) {
    try {
      if (madeModelsDir) rmdirSync(modelsDir);
    } catch {
      // It holds a partial download: it stays, for the next pull.
    }
    leaveAsFound(dir, made);
    throw new InputError(`models pull ${model.id}: ${(error as Error).message}`);
  } finally {
    line.clear();
  }
}

/**
 * `tempora models` lists the recommended models with how well each fits this machine;
 * `tempora models pull ID` downloads one (progress bar, resumable, size and checksum verified).
 */
import type { CommandSpec } from '../command';
import { withEngine } from '../engine-context';
import { InputError, UsageError } from '../errors';
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
    await withEngine(ctx, {}, async (engine) => {
      if (verb === undefined) {
        const entries = engine.models.entries();
        if (ctx.json) return printJson(ctx.io, entries);
        printLines(ctx.io, [
          `Models for this machine (${formatBytes(engine.models.status(engine.memory.jobs.counts()).totalRamBytes)} RAM); download with 'tempora models pull ID':`,
          ...entries.map((e) => `  ${e.id.padEnd(28)} ${e.role.padEnd(9)} ${formatBytes(e.sizeBytes).padStart(9)}  ${FIT_TEXT[e.fit].padEnd(11)} ${e.path ? 'downloaded' : e.partial ? 'partial (pull resumes)' : ''}${e.recommended ? '  ← recommended' : ''}`.trimEnd()),
        ]);
        return;
      }
      let entry;
      try {
        entry = engine.models.find(id!);
      } catch (error) {
        throw new InputError((error as Error).message);
      }
      // A bar rewritten in place on a terminal; a log file or a pipe gets only the answer.
      const line = progressLine(ctx.io);
      let last = 0;
      const path = await engine.models
        .download(entry.id, (p) => {
          if (ctx.json || p.totalBytes === 0) return;
          const now = Date.now();
          if (now - last < 200 && p.downloadedBytes < p.totalBytes) return;
          last = now;
          const share = p.downloadedBytes / p.totalBytes;
          const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
          line.show(`${p.phase === 'verifying' ? 'verifying ' : 'downloading'} [${bar}] ${(share * 100).toFixed(1)}% of ${formatBytes(p.totalBytes)}`);
        })
        .catch((error: Error) => {
          throw new InputError(`models pull ${entry.id}: ${error.message}`);
        })
        .finally(() => line.clear());
      if (ctx.json) return printJson(ctx.io, { id: entry.id, path });
      printLines(ctx.io, [`Downloaded ${entry.name} to ${path}`]);
    });
  },
};

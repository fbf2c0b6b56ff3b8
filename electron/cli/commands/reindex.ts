/** `tempora reindex --embedding-model PATH`: drops the vector index and rebuilds it from SQLite. */
import type { CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { UsageError } from '../errors';
import { printJson, printLines, progressLine } from '../output';

export const reindexCommand: CommandSpec = {
  name: 'reindex',
  summary: 'rebuild the vector index from the memory (SQLite is the truth)',
  synopsis: 'reindex [--embedding-model PATH]',
  description: ['Without --embedding-model, the embedding model the app used last is loaded.'],
  options: { 'embedding-model': MODEL_OPTIONS['embedding-model']!, threads: MODEL_OPTIONS.threads! },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    await withEngine(ctx, {}, async (engine) => {
      if (!engine.models.host.embeddingModel) {
        const configured = engine.memory.settings.read().embeddingModelPath;
        if (!configured) throw new UsageError('reindex needs --embedding-model PATH (no embedding model was used here before)', 'reindex');
        await engine.loadModel('embedding', configured);
      }
      // Counts up in place on a terminal; a log file or a pipe gets only the summary.
      const line = progressLine(ctx.io);
      const result = await engine.vectors
        .rebuild((done, total) => {
          if (!ctx.json) line.show(`embedding ${done}/${total}`);
        })
        .finally(() => line.clear());
      if (ctx.json) return printJson(ctx.io, result);
      printLines(ctx.io, [`Vector index rebuilt: ${result.added} items embedded.`]);
    });
  },
};

/** Learns every waiting message of a UI session's engine with a given model, the page hearing of each job as from the engine's own worker. */
import { IngestionWorker } from '../../../electron/assistant/ingestion/ingestion-worker';
import type { StructuredModel } from '../../../electron/llm/ports';
import type { UiSession } from './ui-session';

export async function learnAll(ui: UiSession, model: StructuredModel): Promise<void> {
  const worker = new IngestionWorker(ui.engine.memory, {
    model: () => model,
    onEvent: (event) => ui.engine.emit({ name: 'ingestionProgress', payload: { counts: event.counts, lastError: event.type === 'job-failed' ? event.error : null } }),
  });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
}

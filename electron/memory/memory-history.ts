/**
 * Memory's imported chat histories (ChatGPT, Claude): their conversations stored with provenance,
 * and the backfill that learns their messages — where it stands, pause, cancel, requeue.
 */
import type { MemoryKernel } from './memory-kernel';
import * as history from './store/chat-history';
import { backfillTotals, type LearningTotals } from './store/messages';

export class MemoryHistory {
  constructor(private readonly kernel: MemoryKernel) {}

  /** Stores conversations of a ChatGPT or Claude export with their provenance, in one transaction; known messages are skipped (store/chat-history.ts). */
  importConversations(inputs: readonly history.HistoryConversationInput[]): history.HistoryImportResult[] {
    const { store } = this.kernel;
    return this.kernel.write(
      () => inputs.map((input) => history.importHistoryConversation(store, input)),
      (results) => {
        const episodeIds = results.flatMap((r) => r.episodeIds);
        return episodeIds.length ? { kind: 'messages', reason: 'message', episodeIds } : null;
      },
    );
  }

  /** Of these message ids of an export, the ones an earlier import stored. */
  knownMessages(source: history.HistorySource, ids: readonly string[]): Set<string> {
    return history.knownHistoryMessages(this.kernel.store.db, source, ids);
  }

  /** What learning the imported messages has cost and given so far: model calls and tokens, facts added and closed. */
  backfillTotals(): LearningTotals {
    return backfillTotals(this.kernel.store);
  }

  /** The backfill of imported messages: where it stands, pause (kept across restarts), resume, cancel. */
  backfillStatus(): history.BackfillStatus {
    return history.backfillStatus(this.kernel.store.db, this.kernel.clock.now());
  }

  setBackfillPaused(paused: boolean): void {
    history.setBackfillPaused(this.kernel.store.db, paused);
  }

  /** The imported messages not yet learned are not learned (they stay stored, and can be requeued); returns how many. */
  cancelBackfill(): number {
    return history.cancelBackfill(this.kernel.store.db, this.kernel.clock.now());
  }

  /** Takes a cancel back: the cancelled imported messages wait to be learned again; returns how many. */
  requeueBackfill(): number {
    return history.requeueBackfill(this.kernel.store.db, this.kernel.clock.now());
  }
}

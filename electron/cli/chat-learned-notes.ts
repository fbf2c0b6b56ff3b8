/**
 * `tempora chat` after each turn: once the message is learned (the worker learns it after the
 * answer, so the prompt is not held up), one line says what it changed — "Learned: … · Closed: …
 * (… – …)" — written above the prompt; a message that cannot be learned says why.
 */
import { learningSummary } from '../../shared/learning-contract';
import type { TemporaEngine } from '../engine/index';
import { escapeControls, formatValidity } from './output';

export interface LearnedNotes {
  /** Say what this message taught once it is learned. */
  watch(episodeId: string): void;
  /** Messages watched and not learned yet. */
  waiting(): number;
  dispose(): void;
}

export function learnedNotes(engine: TemporaEngine, write: (line: string) => void): LearnedNotes {
  const watched = new Set<string>();
  const stop = engine.onEvent((event) => {
    if (event.name === 'messageLearned' && watched.delete(event.payload.episodeId)) {
      write(`  ${escapeControls(learningSummary(event.payload.learning, formatValidity))}\n`);
    }
    if (event.name === 'ingestionProgress' && event.payload.lastError !== null) {
      // A failed try: say it once the message is parked (it will not be retried by itself).
      for (const id of watched) {
        const learning = engine.memory.messages.learning(id);
        if (learning?.state === 'parked') {
          watched.delete(id);
          write(`  ${escapeControls(learningSummary(learning, formatValidity))}\n`);
        }
      }
    }
  });
  return {
    watch: (episodeId) => {
      const now = engine.memory.messages.learning(episodeId);
      if (now?.state === 'pending' || now?.state === 'learning') watched.add(episodeId);
      else if (now) write(`  ${escapeControls(learningSummary(now, formatValidity))}\n`);
    },
    waiting: () => watched.size,
    dispose: stop,
  };
}

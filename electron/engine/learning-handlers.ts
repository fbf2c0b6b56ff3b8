/**
 * The API calls about what messages taught the memory: a message's learning, Undo and Redo, a conversation
 * that is not remembered, the parked messages and retrying one. Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { inUserZone } from './api-errors';
import type { TemporaEngine } from './engine';

type LearningCalls = 'messageLearning' | 'undoLearning' | 'redoLearning' | 'setConversationLearning' | 'listParkedMessages' | 'retryParkedMessage';
type LearningHandlers = { [N in LearningCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export function learningHandlers(engine: TemporaEngine): LearningHandlers {
  const memory = engine.memory;
  return {
    messageLearning: async ({ episodeId }) => memory.messages.learning(episodeId),
    undoLearning: async ({ episodeId }) => {
      try {
        return memory.messages.undoLearning(episodeId);
      } catch (error) {
        throw inUserZone(error, engine.timeZone());
      }
    },
    redoLearning: async ({ episodeId }) => memory.messages.redoLearning(episodeId),
    setConversationLearning: async ({ id, learn, forget }) => {
      const result = memory.conversations.setLearning(id, learn, { forget });
      return { learn: result.learn, undoneMessages: result.undoneMessages, forgottenFacts: result.forgottenFacts };
    },
    listParkedMessages: async () => memory.messages.parked(),
    retryParkedMessage: async ({ episodeId }) => {
      memory.messages.retryParked(episodeId);
      engine.worker.notify();
      return { ok: true as const };
    },
  };
}

/**
 * The API calls about what messages taught the memory: a message's learning, Undo and Redo, a conversation
 * that is not remembered, the parked messages and retrying one. Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import type { TemporaEngine } from './engine';

type LearningCalls = 'messageLearning' | 'undoLearning' | 'redoLearning' | 'setConversationLearning' | 'listParkedMessages' | 'retryParkedMessage';
type LearningHandlers = { [N in LearningCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export function learningHandlers(engine: TemporaEngine): LearningHandlers {
  const memory = engine.memory;
  return {
    messageLearning: async ({ episodeId }) => memory.messageLearning(episodeId),
    undoLearning: async ({ episodeId }) => memory.undoLearning(episodeId),
    redoLearning: async ({ episodeId }) => memory.redoLearning(episodeId),
    setConversationLearning: async ({ id, learn, forget }) => {
      const result = memory.setConversationLearning(id, learn, { forget });
      return { learn: result.learn, undoneMessages: result.undoneMessages, forgottenFacts: result.forgottenFacts };
    },
    listParkedMessages: async () => memory.parkedMessages(),
    retryParkedMessage: async ({ episodeId }) => {
      memory.retryParkedMessage(episodeId);
      engine.worker.notify();
      return { ok: true as const };
    },
  };
}

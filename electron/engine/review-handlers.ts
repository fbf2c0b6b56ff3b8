/**
 * The API calls of review before remembering (shared/review-contract.ts): the setting, what waits,
 * approve (times typed in the edits are read in the user's zone, as in the fact forms) and reject.
 * Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import { readEndInput, readTimeInput } from '../assistant/index';
import { endBeforeStartMessage } from './api-errors';
import type { ApprovedEdit, SlotChanges } from '../memory/index';
import type { TemporaEngine } from './engine';

type ReviewCalls = 'reviewSettings' | 'setReviewBeforeRemembering' | 'pendingReviews' | 'approveReview' | 'rejectReview';
type ReviewHandlers = { [N in ReviewCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export function reviewHandlers(engine: TemporaEngine): ReviewHandlers {
  const memory = engine.memory;
  /** The current versions the approval wrote (a fact it only confirmed counts too). */
  const written = (changes: SlotChanges) => [...new Set([...changes.inserted, ...changes.confirmed])].filter((id) => memory.facts.get(id)?.expired_at === null);
  return {
    reviewSettings: async () => memory.review.status(),
    setReviewBeforeRemembering: async ({ enabled }) => memory.review.setBeforeRemembering(enabled),
    pendingReviews: async () => memory.review.pending(),
    approveReview: async ({ episodeId, edits = [] }) => {
      const now = memory.clock.now();
      const zone = engine.timeZone();
      const proposed = memory.review.pending().find((r) => r.episodeId === episodeId)?.facts;
      const read: ApprovedEdit[] = edits.map((edit, i) => {
        const validAt = edit.validAt === undefined ? undefined : readTimeInput(edit.validAt, `edits.${i}.validAt`, now, zone);
        const start = validAt?.at ?? proposed?.[edit.index]?.validAt ?? now;
        return {
          index: edit.index,
          ...(edit.keep === undefined ? {} : { keep: edit.keep }),
          ...(edit.object === undefined ? {} : { object: edit.object }),
          ...(edit.fact === undefined ? {} : { fact: edit.fact }),
          ...(validAt === undefined ? {} : { validAt }),
          ...(edit.end === undefined ? {} : { end: edit.end === null || edit.end === '' ? null : readEndInput(edit.end, `edits.${i}.end`, now, zone, start) }),
        };
      });
      // An end before the start, said in the user's zone (the memory checks it too, in UTC).
      read.forEach((edit, i) => {
        const f = proposed?.[edit.index];
        if (!f || edit.keep === false) return;
        const start = edit.validAt ?? { at: f.validAt, precision: f.validPrecision };
        const end = edit.end === undefined ? (f.end === null ? null : { at: f.end, precision: f.endPrecision }) : edit.end;
        if (end !== null && end.at <= start.at) throw new ApiError('invalid_input', `edits.${i}: ${endBeforeStartMessage('the end', end, start, zone)}`, { field: `edits.${i}.${edit.end === undefined ? 'validAt' : 'end'}` });
      });
      const changes = memory.review.approve(episodeId, read);
      return { episodeId, factIds: written(changes), waiting: memory.review.status().waiting };
    },
    rejectReview: async ({ episodeId }) => {
      memory.review.reject(episodeId);
      return { episodeId, factIds: [], waiting: memory.review.status().waiting };
    },
  };
}

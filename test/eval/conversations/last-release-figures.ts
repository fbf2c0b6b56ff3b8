/**
 * The conversation set's figures as last recorded (full text, no vectors): recall@5 and recall@10
 * per kind, by size in facts. `npm run eval` prints each run's figures beside these, with the
 * difference. Update them when a release's retrieval changes (and say so in docs/benchmarks.md).
 * A size not recorded yet is absent (100k: to be measured by the lead).
 */
import type { Kind } from './questions';

export interface RecordedFigures {
  recorded: string;
  machine: string;
  sizes: Partial<Record<number, Record<Kind, { r5: number; r10: number }>>>;
}

export const LAST_RELEASE_FIGURES: RecordedFigures = {
  recorded: '2026-12-02, retrieval as of commit d289ed4',
  machine: '2 shared cores',
  sizes: {
    1_000: {
      single: { r5: 0.9, r10: 0.925 },
      'multi-hop': { r5: 0.5469, r10: 0.625 },
      temporal: { r5: 0.9375, r10: 0.9688 },
      'two-people': { r5: 0.6667, r10: 0.8125 },
      paraphrase: { r5: 0.25, r10: 0.3125 },
    },
    10_000: {
      single: { r5: 0.9, r10: 0.925 },
      'multi-hop': { r5: 0.5469, r10: 0.6094 },
      temporal: { r5: 0.9375, r10: 0.9688 },
      'two-people': { r5: 0.5833, r10: 0.75 },
      paraphrase: { r5: 0.125, r10: 0.2188 },
    },
  },
};

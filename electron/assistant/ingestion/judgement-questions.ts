/** The questions of a message's judgement call (see judgement.ts): keys P1.. for pairs, N1.. for names. */
import type { FactRow } from '../../memory/index';

export interface PairQuestion {
  key: string;
  stored: FactRow & { object: string };
  /** Index of the new fact in the message's extraction. */
  newIndex: number;
  newFact: string;
}

export interface NameQuestion {
  key: string;
  name: string;
  candidate: { id: string; name: string; type: string; summary: string };
}

/**
 * The judgement call's words: its system text and the prompt listing the pair and name questions
 * (keys P1.., N1..). The questions are chosen in ingestion/judgement.ts, which also holds the
 * answer's schema and its reading.
 */
import type { NameQuestion, PairQuestion } from '../ingestion/judgement-questions';
import { describeInterval } from './model-time';

export const JUDGEMENT_SYSTEM = [
  'You compare facts from a personal memory. For each pair, answer:',
  '- duplicate: both say the same thing (perhaps in other words or with a synonymous relation);',
  '- contradiction: both cannot be true at the same time (one replaced or ended the other);',
  '- unrelated: both can be true together.',
  'For each name question, answer same if the new name refers to the known entity, else different.',
].join('\n');

/**
 * The pairs and names to judge. A stored fact's interval is written as the chat model reads one
 * (model-time.ts), relative to when the message was written and in days of the zone it was written in.
 */
export function judgementPrompt(pairs: PairQuestion[], names: NameQuestion[], when: { now: string; zone: string }): string {
  const parts: string[] = [];
  if (pairs.length) {
    parts.push(
      'Pairs:\n' +
        pairs
          .map((p) => `${p.key}: stored "${p.stored.fact}" (${p.stored.predicate} → ${p.stored.object}, ${describeInterval(p.stored, when.now, when.zone)}) | new "${p.newFact}"`)
          .join('\n'),
    );
  }
  if (names.length) {
    parts.push('Names:\n' + names.map((n) => `${n.key}: new name "${n.name}" | known ${n.candidate.type} "${n.candidate.name}"${n.candidate.summary ? ` (${n.candidate.summary})` : ''}`).join('\n'));
  }
  return parts.join('\n\n');
}

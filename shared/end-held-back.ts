/**
 * A one-valued fact closed by the value after it keeps an end given past that value in its claim, but
 * the end moves nothing: the fact still ends where the next value begins (an end the user gives has no
 * invalidated_by). Reopening such a fact drops the kept end. Every door says so in these words, so
 * "Saved" / "Closed" / "Edited" is not read as the end having moved.
 */
import type { FactRecord } from './memory-schema';
import { formatSaid, type TimeFormat } from './time-format';

export interface HeldBackWords {
  /** Who is spoken to: the user ("the end you gave") or an agent acting for them ("the end given"). */
  readonly to: 'user' | 'agent';
  /** The fact, as the door names it ("It", or its id). */
  readonly subject?: string;
  /** The value that closes it, as the door names it. */
  readonly next?: string;
}

/** The sentence, or null when the fact is not held back by the value after it. */
export function endHeldBack(
  fact: Pick<FactRecord, 'invalid_at' | 'invalid_at_precision' | 'invalidated_by'>,
  endGiven: boolean,
  format: TimeFormat,
  words: HeldBackWords,
): string | null {
  if (fact.invalid_at === null || fact.invalidated_by === null) return null;
  const at = formatSaid(fact.invalid_at, fact.invalid_at_precision ?? 'instant', format, true);
  const what = endGiven
    ? `the end ${words.to === 'user' ? 'you gave' : 'given'} is kept and shows only if that fact goes. To move this end, change when that fact began.`
    : `the end ${words.to === 'user' ? 'you had given' : 'it had'} is dropped, so it stays open if that fact goes.`;
  return `${words.subject ?? 'It'} still ends where ${words.next ?? 'the next value'} begins (${at}); ${what}`;
}

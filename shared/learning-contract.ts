/**
 * What a message taught the memory, as the API shows it: its learning state (waiting, being
 * learned, parked with its error, learned, undone, or off in a conversation that is not
 * remembered), the fact versions its learning added, closed and confirmed, and what an Undo did.
 * Part of the API contract (shared/api-contract.ts uses these in its calls and events).
 */
import { z } from 'zod';
import { factRecord, isoTime } from './memory-schema';

const id = z.string().min(1).max(200);

/**
 * pending: waiting in the queue; learning: being learned now; parked: failed too often (see error);
 * learned: applied (see added/closed/confirmed); undone: the user undid it, never read by the model
 * again (Redo applies the same learning again, when canRedo);
 * off: its conversation is not remembered, so it is kept and never learned; review: learned, and
 * waiting for the user's review before anything of it is remembered (shared/review-contract.ts);
 * rejected: the user rejected it in review, so nothing of it was remembered.
 */
export const learningState = z.enum(['pending', 'learning', 'parked', 'learned', 'undone', 'off', 'review', 'rejected']);
export type LearningState = z.infer<typeof learningState>;

/** A fact Undo left as it is, and why in words. */
const factWithReason = z.strictObject({ fact: factRecord, reason: z.string() });

/** What an Undo did: all of it in one write. */
export const undoReport = z.strictObject({
  at: isoTime,
  /** Facts the message added that were forgotten (as they were before). */
  forgotten: z.array(factRecord),
  /** Facts it added that stay: another source also says them (or the user edited them). */
  kept: z.array(factWithReason),
  /** Facts it closed that are open again (their new current version). */
  reopened: z.array(factRecord),
  /** Facts it closed that stay closed, because something later closed them too (their current version). */
  stillClosed: z.array(factWithReason),
  /** Facts it only confirmed: they stay, without this message as a source. */
  unconfirmed: z.array(factRecord),
});
export type UndoReport = z.infer<typeof undoReport>;

export const messageLearning = z.strictObject({
  episodeId: id,
  conversationId: id.nullable(),
  state: learningState,
  /** Why the last attempt failed, in words (parked, or pending after a failure). */
  error: z.string().nullable(),
  /** The versions its learning wrote, as that write left them; versions since forgotten are left out. */
  added: z.array(factRecord),
  closed: z.array(factRecord),
  confirmed: z.array(factRecord),
  /** False for messages learned before Tempora recorded what each message changed (no Undo then). */
  recorded: z.boolean(),
  canUndo: z.boolean(),
  /** Undone, and its learning was kept (learned since migration 0021) in a conversation still remembered: Redo applies it again. */
  canRedo: z.boolean(),
  undo: undoReport.nullable(),
});
export type MessageLearning = z.infer<typeof messageLearning>;

/** A message whose learning failed too often, with where it was said and the error in words. */
export const parkedMessage = z.strictObject({
  episodeId: id,
  conversationId: id.nullable(),
  conversationTitle: z.string().nullable(),
  role: z.string(),
  content: z.string(),
  referenceTime: isoTime,
  error: z.string(),
  attempts: z.number().int(),
  parkedAt: isoTime,
});
export type ParkedMessage = z.infer<typeof parkedMessage>;

/**
 * The one-line summary of a message's learning ("Learned: … · Closed: … (ended 1 Sep 2026)"), for
 * terminals and titles; `interval` writes a closed fact's interval (shared/time-format.ts, in the
 * reader's zone and locale).
 */
export function learningSummary(learning: MessageLearning, interval: (fact: MessageLearning['closed'][number]) => string): string {
  switch (learning.state) {
    case 'pending':
      return learning.error ? `Waiting to be learned again (last try failed: ${learning.error})` : 'Waiting to be learned';
    case 'learning':
      return 'Being learned…';
    case 'parked':
      return `Could not be learned: ${learning.error ?? 'unknown error'}`;
    case 'off':
      return 'Not learned: this conversation is not remembered';
    case 'review':
      return 'Waiting for your review before it is remembered (Review screen, or `tempora review`)';
    case 'rejected':
      return 'Rejected in review: nothing of it was remembered';
    case 'undone':
      return `Undone${learning.undo ? `: ${undoSummary(learning.undo)}` : ''}`;
    case 'learned': {
      if (!learning.recorded) return 'Learned';
      const parts = [
        learning.added.length ? `Learned: ${learning.added.map((f) => f.fact).join('; ')}` : null,
        learning.closed.length ? `Closed: ${learning.closed.map((f) => `${f.fact} (${interval(f)})`).join('; ')}` : null,
        learning.confirmed.length ? `Confirmed: ${learning.confirmed.map((f) => f.fact).join('; ')}` : null,
      ].filter((p) => p !== null);
      return parts.length ? parts.join(' · ') : 'Learned nothing new';
    }
  }
}

/** What an Undo did and did not do, in words. */
export function undoSummary(report: UndoReport): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const parts = [
    report.forgotten.length ? `forgot ${count(report.forgotten.length, 'fact')}` : null,
    report.reopened.length ? `reopened ${report.reopened.map((f) => f.fact).join('; ')}` : null,
    report.unconfirmed.length ? `${count(report.unconfirmed.length, 'fact')} no longer cite this message` : null,
    ...report.kept.map((k) => `kept “${k.fact.fact}”: ${k.reason}`),
    ...report.stillClosed.map((k) => `“${k.fact.fact}” stays closed: ${k.reason}`),
  ].filter((p) => p !== null);
  return parts.length ? parts.join('; ') : 'nothing to take back';
}

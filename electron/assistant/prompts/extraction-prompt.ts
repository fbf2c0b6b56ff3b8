/**
 * The extraction call's words: its system text and the prompt built for one message (the known
 * vocabulary, the message's time, the assistant message it may confirm). The answer's schema and its
 * reading are in ingestion/extraction.ts.
 */
import { zonedAt } from '../../../shared/time-zone';

export const EXTRACTION_SYSTEM = [
  'You extract durable facts about the user and the people, places and things in their life from one chat message.',
  'Only facts the message states; no guesses, no facts about the conversation itself. Return {"facts": []} when there are none.',
  'Write each fact sentence in the language of the message. Use "me" as the subject for the user.',
  'Reuse the known entity names and predicates listed when they mean the same thing; invent new ones only when none fits.',
  'Copy time expressions exactly as written into since/until; leave them "" when the message gives none.',
  'When the message says something is no longer true ("I stopped…", "もう…ない") without saying when, write "now" in until.',
  'Set ended to true when the message says the fact is already over ("I lived in Osaka until March", "3月まで大阪に住んでいました"), false when it still holds, even with an end to come ("I\'m in Osaka until November", "11月まで大阪に出張です").',
  'The assistant\'s previous message, when shown, is context: take a fact from it only when the user\'s message confirms it ("yes", "right", "そうです"), write it as the user would, and set from_assistant to true. Otherwise from_assistant is false.',
].join('\n');

/** How much of the assistant's previous message the prompt shows (its end: where a question or a summary usually is). */
export const MAX_ASSISTANT_CONTEXT_CHARS = 400;

export interface ExtractionContext {
  role: string;
  content: string;
  referenceTime: string;
  /** The zone the message was written in (else the user's): its time and weekday are said there. */
  zone: string;
  knownEntities: { name: string; type: string; aliases: string[] }[];
  knownPredicates: { predicate: string; cardinality: string }[];
  /** The assistant message this user message answers, if any. */
  previousAssistant?: string;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function extractionPrompt(ctx: ExtractionContext): string {
  const written = zonedAt(ctx.referenceTime, ctx.zone);
  const when = written.toString({ timeZoneName: 'never', smallestUnit: 'second' });
  const weekday = WEEKDAYS[written.dayOfWeek - 1];
  const entities = ctx.knownEntities.length
    ? ctx.knownEntities.map((e) => `- ${e.name} (${e.type}${e.aliases.length ? `; also: ${e.aliases.join(', ')}` : ''})`).join('\n')
    : '- (none yet)';
  const predicates = ctx.knownPredicates.length ? ctx.knownPredicates.map((p) => `- ${p.predicate} (${p.cardinality})`).join('\n') : '- (none yet)';
  return [
    `The message was written on ${when} (${weekday}); relative times like "last week" or "先週" are relative to that moment.`,
    `Known entities:\n${entities}`,
    `Known predicates:\n${predicates}`,
    ...(ctx.previousAssistant ? [`The assistant's previous message (context only):\n<<<\n${tail(ctx.previousAssistant, MAX_ASSISTANT_CONTEXT_CHARS)}\n>>>`] : []),
    `Message from the ${ctx.role}:\n"""\n${ctx.content}\n"""`,
  ].join('\n\n');
}

function tail(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `…${chars.slice(chars.length - max).join('')}`;
}

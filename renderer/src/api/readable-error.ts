/**
 * The one mapping from whatever a call (or a form, or a file) failed with to what the screen says:
 * one sentence — what is wrong and what to do — and, apart, the details for whoever wants them
 * (common/ErrorText.tsx shows those behind a disclosure). The sentence never carries an internal
 * call name ("mcpStatus: …", "editFact: invalid request: …") nor raw parser or schema output: a
 * message that is not a plain sentence goes to the details, and the sentence the caller gave for
 * that case (or its kind's) is shown instead.
 */
// Before any schema is built: the page's CSP forbids eval (see the file).
import '../../../shared/zod-no-eval';
import { apiCalls } from '../../../shared/api-contract';
import { ApiError, type ApiErrorCode } from '../../../shared/api-error';

export interface ReadableError {
  sentence: string;
  /** The message as it came (without call names), one problem a line; null when the sentence says it all. */
  details: string | null;
}

const CALL_NAMES = new Set(Object.keys(apiCalls));

/** Said when a message is not a plain sentence, by the kind of failure. */
const BY_CODE: Record<ApiErrorCode | 'unknown', string> = {
  invalid_request: 'Tempora could not use what was sent; check what you entered and try again.',
  invalid_input: 'Tempora could not use what was entered; check it and try again.',
  not_found: 'What this refers to is no longer in the memory; reload the page to see what is.',
  model: 'The model could not do this; check it on the Models screen and try again.',
  busy: 'Tempora is busy with other requests; try again in a moment.',
  disconnected: 'The page is not connected to Tempora; wait a moment, or reload the page.',
  unknown_call: 'This page and Tempora do not match; reload the page.',
  invalid_response: 'Something went wrong inside Tempora; try again, and if it happens again, report it with the details.',
  internal: 'Something went wrong inside Tempora; try again, and if it happens again, report it with the details.',
  unknown: 'Something went wrong; try again, and if it happens again, report it with the details.',
};

/** Longer than this (the close form’s ambiguous date is ~220), or more than this many problems, is no longer one sentence. */
const MAX_SENTENCE = 300;
const MAX_PROBLEMS = 2;
/** What raw parser and schema output looks like (JSON, zod's issue text, a parser's position). */
const RAW_OUTPUT = [
  /[{}[\]]/,
  /\bparser\b/i,
  /\bunexpected (token|end|character)\b/i,
  /\bat position \d+/i,
  /\binvalid (input|option|type|iso|string|enum|union|literal)\b/i,
  /\btoo (small|big):/i,
  /\bexpected\b.*\breceived\b/i,
  /\bexpected one of\b/i,
  /\bzod/i,
  // A field path named after the first part ("…, message g-u1: message.author.role: …").
  /: [A-Za-z_]\w*(\.\w+)+: /,
  /^\s*at\s/m,
];

/** The message without the API's internal prefixes ("previewImport: ", "invalid request: "). */
export function withoutCallNames(text: string): string {
  let rest = text.replace(/^Error invoking remote method '[^']+': (?:Error: )?/, '');
  for (;;) {
    const head = /^([A-Za-z]+): /.exec(rest);
    if (!head || !CALL_NAMES.has(head[1]!)) break;
    rest = rest.slice(head[0].length);
  }
  return rest.replace(/^invalid (request|response): /, '');
}

function isSentence(text: string): boolean {
  if (text.length === 0 || text.length > MAX_SENTENCE || text.includes('\n')) return false;
  if (text.split('; ').length > MAX_PROBLEMS) return false;
  // Quoted input ("not a time: \"2026-09-31\"") is the user's own text, not raw output; an entry
  // of a file's list named by its index ("claim 1 (claims[0])") is a place in words, not JSON.
  const unquoted = text.replace(/"[^"]*"|“[^”]*”/g, '""').replace(/\w \([A-Za-z_]\w*\[\d+\]\)/g, 'w (entry)');
  return !RAW_OUTPUT.some((pattern) => pattern.test(unquoted));
}

/**
 * The words before a message turns technical: "x.json cannot be imported: not a valid Tempora
 * export" of "…: facts.0.valid_at: Invalid ISO datetime; …"; null when it starts technical. After
 * the first part (a file's name may be one word), a part of one word is a field path: the end.
 */
function plainHead(text: string): string | null {
  const words: string[] = [];
  for (const segment of text.split(': ')) {
    const oneWord = !/\s/.test(segment.trim());
    if ((oneWord && words.length > 0) || /[\w)]\.\d|\(root\)/.test(segment) || !isSentence(segment)) break;
    words.push(segment);
  }
  if (words.length === 1 && !/\s/.test(words[0]!.trim())) return null;
  const head = words.join(': ');
  return head.length > 0 && head.length < text.length ? head : null;
}

/** One problem a line. */
function detailLines(text: string): string {
  return text.split('; ').join('\n');
}

/**
 * What to show for a failure: an ApiError or any error a call threw, or a message already in hand.
 * `fallback`: the sentence for this place when the message is not one (say, "x.json is not a
 * Tempora export file; …"); `details`: more to put behind the disclosure. Null when there is nothing.
 */
export function readableError(error: unknown, options: { fallback?: string; details?: string | null } = {}): ReadableError | null {
  if (error === null || error === undefined || error === '') return null;
  const raw = typeof error === 'string' ? error : error instanceof Error ? error.message : JSON.stringify(error);
  const code: ApiErrorCode | 'unknown' = error instanceof ApiError ? error.code : 'unknown';
  const text = withoutCallNames(raw.trim());
  const extra = options.details ? withoutCallNames(options.details.trim()) : '';
  if (code === 'busy') return { sentence: BY_CODE.busy, details: null };
  if (isSentence(text)) return { sentence: text, details: extra ? detailLines(extra) : null };
  // The plain words before the technical part are the sentence; the rest is the details.
  const head = options.fallback === undefined ? plainHead(text) : null;
  const details = [head ? text.slice(head.length + 2) : text, extra].filter((part) => part !== '').map(detailLines).join('\n');
  return { sentence: options.fallback ?? (head ? `${head}; the details say what is wrong.` : BY_CODE[code]), details: details || null };
}

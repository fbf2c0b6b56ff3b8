/**
 * The loopback bridge's wire format, written once for both ends (electron/server and
 * renderer/src/api): JSON text frames over one WebSocket per page, at API_PATH.
 *
 *   client -> server   {"type":"call","id":<integer>,"name":<ApiCallName>,"request":<payload>}
 *   server -> client   {"type":"result","id":<integer>,"ok":true,"value":<response>}
 *                      {"type":"result","id":<integer>,"ok":false,"error":"<message>","code":<ApiErrorCode>,"field"?:…,"detail"?:…}
 *                      {"type":"result","id":null,"ok":false,"error":"<message>"}
 *                      {"type":"event","event":{"name":<ApiEventName>,"payload":<payload>}}
 *
 * A result is an outcome of shared/api-error.ts with type and id added. A frame whose id cannot
 * be read (not JSON, not an object, no integer id) is answered with `"id":null` and no code: no
 * call can be matched to it. The connection stays open either way. Results may arrive in any order.
 */
import { z } from 'zod';
import { type ApiError, apiFailure, apiSuccess, failure, firstIssueText, type ApiErrorData, type ApiOutcome } from './api-error';
import { apiCalls, apiEventEnvelope, type ApiCallName } from './api-contract';

/** Where the WebSocket is (`ws://127.0.0.1:PORT/api?token=T`). */
export const API_PATH = '/api';

/** The largest message a client may send (an import carries a whole memory export). */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** WebSocket close codes of the bridge. */
export const CLOSE = {
  /** The page's origin is right but its token is not (a stale page after a restart, say). */
  badToken: 4401,
  /** Binary frames are not part of the protocol. */
  unsupportedData: 1003,
  /** The client does not read what it is sent. */
  tooSlow: 1008,
  /** A message over MAX_MESSAGE_BYTES (sent by the WebSocket library itself). */
  messageTooBig: 1009,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;

/** Close codes that mean "this page may not connect": reconnecting cannot help, reopening the printed address can. */
export const REFUSED_CLOSE_CODES: ReadonlySet<number> = new Set([CLOSE.badToken]);

// ---------- client -> server ----------

/** A call's id: chosen by the client, echoed in its result. */
export const messageId = z.int();

const callNames = Object.keys(apiCalls) as [ApiCallName, ...ApiCallName[]];

/**
 * A call. Each part's error says in words what is wrong (a client sees them as the error of its
 * result), so the messages are full sentences rather than zod's defaults.
 */
export const callMessage = z.strictObject(
  {
    type: z.literal('call', { error: (issue) => `type: must be "call", got ${describe(issue.input)}` }),
    id: messageId,
    name: z.enum(callNames, {
      error: (issue) => (typeof issue.input === 'string' ? `unknown call ${JSON.stringify(issue.input.slice(0, 100))}` : `name: must be the name of a call, got ${describe(issue.input)}`),
    }),
    request: z.unknown().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unexpected field ${JSON.stringify(issue.keys[0])} in the message`
        : issue.code === 'invalid_type'
          ? 'a message must be a JSON object {"type":"call","id":…,"name":…,"request":…}'
          : undefined,
  },
);
export type CallMessage = z.infer<typeof callMessage>;

// ---------- server -> client ----------

export const resultSuccessMessage = apiSuccess.extend({ type: z.literal('result'), id: messageId });
export const resultFailureMessage = apiFailure.extend({ type: z.literal('result'), id: messageId });
/** The answer to a frame whose id could not be read. */
export const frameErrorMessage = z.strictObject({ type: z.literal('result'), id: z.null(), ok: z.literal(false), error: z.string() });
export const eventMessage = z.strictObject({ type: z.literal('event'), event: apiEventEnvelope });
export const serverMessage = z.union([resultSuccessMessage, resultFailureMessage, frameErrorMessage, eventMessage]);

export type ResultMessage = z.infer<typeof resultSuccessMessage> | z.infer<typeof resultFailureMessage> | z.infer<typeof frameErrorMessage>;
export type EventMessage = z.infer<typeof eventMessage>;
export type ServerMessage = z.infer<typeof serverMessage>;

/** The result message that carries a call's outcome. */
export function resultMessage(id: number, outcome: ApiOutcome): ResultMessage {
  return { type: 'result', id, ...outcome };
}

/** The error result for call `id`. */
export function errorResult(id: number, error: ApiErrorData | ApiError): ResultMessage {
  return resultMessage(id, failure(error));
}

// ---------- parsing ----------

export type ParsedCallMessage = { ok: true; call: CallMessage } | { ok: false; reply: ResultMessage };

/**
 * Reads one text frame from a client; never throws. A bad frame gets the reply to send: an error
 * result for its id, or with id null when even that cannot be read.
 */
export function parseCallMessage(text: string): ParsedCallMessage {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { ok: false, reply: frameError(`not JSON: ${oneLine((error as Error).message)}`) };
  }
  const parsed = callMessage.safeParse(message);
  if (parsed.success) return { ok: true, call: parsed.data };
  const issues = parsed.error.issues;
  const root = issues.find((issue) => issue.path.length === 0 && issue.code === 'invalid_type');
  if (root) return { ok: false, reply: frameError(root.message) };
  const id = (message as { id?: unknown }).id;
  if (!messageId.safeParse(id).success) return { ok: false, reply: frameError('id: must be an integer') };
  // The first problem in the order of the message: type, name, then fields it should not have.
  const issue = issues.find((i) => i.path[0] === 'type') ?? issues.find((i) => i.path[0] === 'name') ?? issues[0]!;
  const name = (message as { name?: unknown }).name;
  const code = issue.path[0] === 'name' && typeof name === 'string' ? 'unknown_call' : 'invalid_request';
  return { ok: false, reply: errorResult(id as number, { code, message: issue.message }) };
}

/**
 * Reads one frame from the server: the message, or for a frame that breaks the protocol the id
 * it names (when readable) and what is wrong. Never throws.
 */
export function parseServerMessage(data: unknown): { ok: true; message: ServerMessage } | { ok: false; id: number | null; error: string } {
  if (typeof data !== 'string') return { ok: false, id: null, error: 'not a text frame' };
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return { ok: false, id: null, error: 'not JSON' };
  }
  const parsed = serverMessage.safeParse(message);
  if (parsed.success) return { ok: true, message: parsed.data };
  const id = typeof message === 'object' && message !== null ? messageId.safeParse((message as { id?: unknown }).id) : null;
  return { ok: false, id: id?.success ? id.data : null, error: parsed.error.issues.length ? firstIssueText(parsed.error) : 'not a bridge message' };
}

function frameError(error: string): ResultMessage {
  return { type: 'result', id: null, ok: false, error };
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 100));
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}

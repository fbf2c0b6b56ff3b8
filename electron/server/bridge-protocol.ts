/**
 * The bridge's wire format (JSON text frames over one WebSocket per page):
 *
 *   client -> server   {"type":"call","id":<number>,"name":<ApiCallName>,"request":<payload>}
 *   server -> client   {"type":"result","id":<number>,"ok":true,"value":<response>}
 *                      {"type":"result","id":<number>,"ok":false,"error":"<message>"}
 *                      {"type":"event","event":{"name":<ApiEventName>,"payload":<payload>}}
 *
 * A message whose id cannot be read (not JSON, not an object, no numeric id) is answered with
 * `"id":null` and ok false; the connection stays open. Results may arrive in any order.
 */
import { apiCalls, apiEvents, type ApiCallName, type ApiEventEnvelope } from '../../shared/api-contract';

export const API_PATH = '/api';

/** The largest message a client may send (an import carries a whole memory export). */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** Calls one connection may have running at once; more are answered with an error. */
export const MAX_CALLS_IN_FLIGHT = 64;

/** WebSocket close codes the bridge uses. */
export const CLOSE = {
  /** The page's origin is right but its token is not (a stale page after a restart, say). */
  badToken: 4401,
  /** Binary frames are not part of the protocol. */
  unsupportedData: 1003,
  /** The client does not read what it is sent. */
  tooSlow: 1008,
  goingAway: 1001,
} as const;

export interface CallMessage {
  type: 'call';
  id: number;
  name: ApiCallName;
  request: unknown;
}

export type ResultMessage =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number | null; ok: false; error: string };

export interface EventMessage {
  type: 'event';
  event: ApiEventEnvelope;
}

export type ParsedClientMessage = { ok: true; call: CallMessage } | { ok: false; id: number | null; error: string };

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Reads one text frame from a client; never throws. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { ok: false, id: null, error: `not JSON: ${oneLine((error as Error).message)}` };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { ok: false, id: null, error: 'a message must be a JSON object {"type":"call","id":…,"name":…,"request":…}' };
  }
  const record = message as Record<string, unknown>;
  const id = record.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || Math.abs(id) > MAX_ID) {
    return { ok: false, id: null, error: 'id: must be an integer' };
  }
  if (record.type !== 'call') return { ok: false, id, error: `type: must be "call", got ${describe(record.type)}` };
  const name = record.name;
  if (typeof name !== 'string') return { ok: false, id, error: `name: must be the name of a call, got ${describe(name)}` };
  if (!Object.hasOwn(apiCalls, name)) return { ok: false, id, error: `unknown call ${JSON.stringify(name.slice(0, 100))}` };
  const extra = Object.keys(record).filter((key) => !['type', 'id', 'name', 'request'].includes(key));
  if (extra.length > 0) return { ok: false, id, error: `unexpected field ${JSON.stringify(extra[0])} in the message` };
  return { ok: true, call: { type: 'call', id, name: name as ApiCallName, request: record.request } };
}

/** The event when its payload matches the contract, else null (never sent). */
export function checkedEvent(event: ApiEventEnvelope): ApiEventEnvelope | null {
  if (!Object.hasOwn(apiEvents, event.name)) return null;
  const parsed = apiEvents[event.name].safeParse(event.payload);
  return parsed.success ? ({ name: event.name, payload: parsed.data } as ApiEventEnvelope) : null;
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

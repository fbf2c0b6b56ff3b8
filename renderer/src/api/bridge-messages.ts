/** The bridge's wire format, and guards that check what the server sends before it is used. */
import type { ApiCallName, ApiEventEnvelope } from '../../../shared/api-contract';

export interface CallMessage {
  type: 'call';
  id: number;
  name: ApiCallName;
  request: unknown;
}

export type ResultMessage = { type: 'result'; id: number; ok: true; value: unknown } | { type: 'result'; id: number; ok: false; error: string };
export interface EventMessage {
  type: 'event';
  event: ApiEventEnvelope;
}

const EVENT_NAMES = new Set<string>(['chatToken', 'chatContext', 'ingestionProgress', 'downloadProgress', 'memoryChanged', 'modelsChanged'] satisfies ApiEventEnvelope['name'][]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one frame; null for anything that is not a result or an event of a known name. */
export function parseServerMessage(data: unknown): ResultMessage | EventMessage | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(message)) return null;
  if (message.type === 'result' && typeof message.id === 'number') {
    if (message.ok === true) return { type: 'result', id: message.id, ok: true, value: message.value };
    if (message.ok === false) return { type: 'result', id: message.id, ok: false, error: typeof message.error === 'string' ? message.error : 'the call failed' };
    return null;
  }
  if (message.type === 'event' && isRecord(message.event)) {
    const { name, payload } = message.event;
    if (typeof name === 'string' && EVENT_NAMES.has(name) && isRecord(payload)) {
      // The name is one of the contract's events and the server validated the payload against it.
      return { type: 'event', event: { name, payload } as ApiEventEnvelope };
    }
  }
  return null;
}

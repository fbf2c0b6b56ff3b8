/** Sending on a bridge WebSocket without letting a client that does not read fill the memory. */
import { WebSocket, type RawData } from 'ws';
import { CLOSE, errorResult, type ResultMessage } from '../../shared/bridge-protocol';

/** A client that leaves this much unread is dropped rather than allowed to fill the memory. */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** Sends a result; one that cannot be encoded is replaced by an error result saying so. */
export function sendMessage(ws: WebSocket, message: ResultMessage): void {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    const problem = `the answer could not be encoded: ${(error instanceof Error ? error.message : String(error)) || 'the call failed'}`;
    const fallback: ResultMessage = message.id === null ? { type: 'result', id: null, ok: false, error: problem } : errorResult(message.id, { code: 'internal', message: problem });
    text = JSON.stringify(fallback);
  }
  sendRaw(ws, text);
}

/** Sends a text frame to an open socket, or closes it when it has too much unread already. */
export function sendRaw(ws: WebSocket, text: string): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.close(CLOSE.tooSlow, 'too much unread data');
    return;
  }
  ws.send(text);
}

/** The text of a received frame, whichever form ws delivers it in. */
export function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

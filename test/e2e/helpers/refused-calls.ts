/**
 * A page whose calls the test may refuse: its WebSocket to the bridge (/api, one for every call) is
 * routed through Playwright (routeWebSocket). Every frame passes on to the real bridge, but a call
 * the test's `refuse` answers with a refusal gets the failure result the bridge sends for a refused
 * call (electron/server/call-dispatch.ts) instead of reaching the engine. The page is reloaded, so
 * its connection is the one routed.
 */
import type { Page } from 'playwright-core';
import type { ResultMessage } from '../../../shared/bridge-protocol';

/** A call as the page sends it. */
export interface PageCall {
  type: 'call';
  id: number;
  name: string;
  request?: Record<string, unknown>;
}

/** What the bridge answers a refused call with. */
export type Refusal = Pick<Extract<ResultMessage, { ok: false; id: number }>, 'error' | 'code'>;

/** The bridge's own refusal when a connection has too many calls running. */
export const BUSY: Refusal = { code: 'busy', error: 'too many calls at once (at most 64)' };
/** What the screen says for it. */
export const BUSY_SENTENCE = 'Tempora is busy with other requests; try again in a moment.';

/** Which calls to refuse, and how; null (or a function answering null): every call reaches the engine. */
export type RefuseCall = ((call: PageCall) => Refusal | null | undefined) | null;

export interface RefusedCalls {
  /** The calls refused so far, in order. */
  readonly refused: PageCall[];
  /** Sets which calls are refused from now on. */
  refuse(rule: RefuseCall): void;
}

export async function routeRefusals(page: Page): Promise<RefusedCalls> {
  let rule: RefuseCall = null;
  const refused: PageCall[] = [];
  await page.routeWebSocket(/\/api(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    // The server's frames pass on untouched; the page's pass on unless the call is refused.
    ws.onMessage((frame) => {
      const call = JSON.parse(String(frame)) as PageCall;
      const refusal = call.type === 'call' ? rule?.(call) : null;
      if (!refusal) return server.send(frame);
      refused.push(call);
      const result: ResultMessage = { type: 'result', id: call.id, ok: false, ...refusal };
      ws.send(JSON.stringify(result));
    });
  });
  await page.reload();
  await page.locator('nav[aria-label="Main"]').waitFor();
  return {
    refused,
    refuse: (next) => {
      rule = next;
    },
  };
}

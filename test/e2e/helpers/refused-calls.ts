/**
 * A page whose calls the test may refuse or hold back: its WebSocket to the bridge (/api, one for
 * every call) is routed through Playwright (routeWebSocket). Every frame passes on to the real
 * bridge, but a call the test's `refuse` answers with a refusal gets the failure result the bridge
 * sends for a refused call (electron/server/call-dispatch.ts) instead of reaching the engine, and a
 * call the test's `hold` picks waits here until `release` sends it on (its answer comes after: a
 * slow answer, without a sleep). The page is reloaded, so its connection is the one routed.
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
export type Refusal = Pick<Extract<ResultMessage, { ok: false; id: number }>, 'error' | 'code' | 'detail'>;

/** The bridge's own refusal when a connection has too many calls running. */
export const BUSY: Refusal = { code: 'busy', error: 'too many calls at once (at most 64)' };
/** What the screen says for it. */
export const BUSY_SENTENCE = 'Tempora is busy with other requests; try again in a moment.';

/** Which calls to refuse, and how; null (or a function answering null): every call reaches the engine. */
export type RefuseCall = ((call: PageCall) => Refusal | null | undefined) | null;

/** Which calls to hold back until released; null: none. */
export type HoldCall = ((call: PageCall) => boolean) | null;

export interface RefusedCalls {
  /** The calls refused so far, in order. */
  readonly refused: PageCall[];
  /** Sets which calls are refused from now on. */
  refuse(rule: RefuseCall): void;
  /** The calls held back and not yet released, in order. */
  readonly held: readonly PageCall[];
  /** Sets which calls are held back from now on (those held already stay held). */
  hold(rule: HoldCall): void;
  /** Sends every call held back on to the bridge, in order. */
  release(): void;
}

export async function routeRefusals(page: Page): Promise<RefusedCalls> {
  let rule: RefuseCall = null;
  let holdRule: HoldCall = null;
  const refused: PageCall[] = [];
  const held: { call: PageCall; send(): void }[] = [];
  await page.routeWebSocket(/\/api(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    // The server's frames pass on untouched; the page's pass on unless the call is refused or held.
    ws.onMessage((frame) => {
      const call = JSON.parse(String(frame)) as PageCall;
      if (call.type === 'call' && holdRule?.(call)) return void held.push({ call, send: () => server.send(frame) });
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
    get held() {
      return held.map((h) => h.call);
    },
    hold: (next) => {
      holdRule = next;
    },
    release: () => {
      for (const h of held.splice(0)) h.send();
    },
  };
}

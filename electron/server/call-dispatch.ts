/**
 * One connection's calls: each goes through dispatchCall() (request validated, handler, response
 * validated) and its outcome, error code and field included, is sent back as the result for its
 * id. At most MAX_CALLS_IN_FLIGHT run at once; more are answered with a `busy` error.
 */
import { errorResult, resultMessage, type CallMessage, type ResultMessage } from '../../shared/bridge-protocol';
import { outcomeOf } from '../engine/api-errors';
import { dispatchCall, type ApiHandlers } from '../engine/api-handlers';

/** Calls one connection may have running at once; more are answered with an error. */
export const MAX_CALLS_IN_FLIGHT = 64;

export class CallDispatcher {
  private inFlight = 0;

  constructor(
    private readonly handlers: ApiHandlers,
    /** Where each result goes (the connection's socket). */
    private readonly reply: (message: ResultMessage) => void,
  ) {}

  /** Starts a call; its result is replied later, in any order with others. */
  dispatch(call: CallMessage): void {
    const { id, name, request } = call;
    if (this.inFlight >= MAX_CALLS_IN_FLIGHT) {
      this.reply(errorResult(id, { code: 'busy', message: `too many calls at once (at most ${MAX_CALLS_IN_FLIGHT})` }));
      return;
    }
    this.inFlight++;
    void outcomeOf(() => dispatchCall(this.handlers, name, request))
      .then((outcome) => this.reply(resultMessage(id, outcome)))
      // outcomeOf never rejects; a reply that throws (a socket gone mid-send) must not take the bridge down.
      .catch((error: unknown) => console.error('tempora bridge: could not send a result:', error))
      .finally(() => {
        this.inFlight--;
      });
  }
}

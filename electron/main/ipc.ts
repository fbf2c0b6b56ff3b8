/**
 * IPC for every call of shared/api-contract.ts. Each handler first checks that the sending frame
 * is the app's own page, then hands the payload to dispatchCall(), which validates it with the
 * call's schema (a bad payload is refused with an error naming the field and never reaches the
 * engine), runs the handler and validates the answer too.
 *
 * A call answers its outcome, { ok: true, value } or { ok: false, error, code, field? }
 * (shared/api-error.ts), instead of rejecting: ipcMain.handle would pass on only an error's
 * message, and the page needs its code and field. Only a refused sender is rejected.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { apiCalls, type ApiCallName } from '../../shared/api-contract';
import { dispatchCall, type ApiHandlers } from '../engine/api-handlers';
import { outcomeOf } from '../engine/api-errors';
import { isAppUrl } from './renderer-location';

/** Registers one handler per call of the contract; the set of channels is exactly apiCalls'. */
export function registerIpc(handlers: ApiHandlers, appOrigin: string): void {
  for (const name of Object.keys(apiCalls) as ApiCallName[]) {
    const channel = apiCalls[name].channel;
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, payload: unknown) => {
      assertTrustedSender(event, channel, appOrigin);
      return outcomeOf(() => dispatchCall(handlers, name, payload));
    });
  }
}

/** For tests and shutdown: removes every handler registered here. */
export function unregisterIpc(): void {
  for (const call of Object.values(apiCalls)) ipcMain.removeHandler(call.channel);
}

export function assertTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, channel: string, appOrigin: string): void {
  const url = event.senderFrame?.url;
  if (!isAppUrl(url, appOrigin)) {
    throw new Error(`${channel}: refused a call from ${url ? JSON.stringify(url) : 'a detached frame'}`);
  }
}

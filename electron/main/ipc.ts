/**
 * IPC handlers for the calls of shared/api-contract.ts. Each handler first checks that the sending
 * frame is the app's own page, then validates the payload with the call's schema; a bad payload
 * is rejected with a message naming the field, and never reaches the memory.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { apiCalls, type ApiCallName, type ApiRequest, type ApiResponse } from '../../shared/api-contract';
import { describeZodError } from '../../shared/memory-schema';
import type { openMemory } from '../memory/index';
import { isAppUrl } from './renderer-location';

type Memory = ReturnType<typeof openMemory>;
type Handler<N extends ApiCallName> = (request: ApiRequest<N>) => ApiResponse<N> | Promise<ApiResponse<N>>;

export function registerIpc(memory: Memory, appOrigin: string): void {
  handle('listFacts', appOrigin, (request) => memory.listFacts(request));
}

/** For tests and shutdown: removes every handler registered here. */
export function unregisterIpc(): void {
  for (const call of Object.values(apiCalls)) ipcMain.removeHandler(call.channel);
}

function handle<N extends ApiCallName>(name: N, appOrigin: string, handler: Handler<N>): void {
  const call = apiCalls[name];
  ipcMain.handle(call.channel, async (event: IpcMainInvokeEvent, payload: unknown) => {
    assertTrustedSender(event, call.channel, appOrigin);
    const parsed = call.request.safeParse(payload);
    if (!parsed.success) throw new Error(`${call.channel}: invalid request: ${describeZodError(parsed.error)}`);
    const result = await handler(parsed.data as ApiRequest<N>);
    // Main checks its own answer too, so a drift between the memory engine and the contract is
    // caught here rather than as undefined fields in the UI.
    const checked = call.response.safeParse(result);
    if (!checked.success) throw new Error(`${call.channel}: invalid response: ${describeZodError(checked.error)}`);
    return checked.data;
  });
}

function assertTrustedSender(event: IpcMainInvokeEvent, channel: string, appOrigin: string): void {
  const url = event.senderFrame?.url;
  if (!isAppUrl(url, appOrigin)) {
    throw new Error(`${channel}: refused a call from ${url ? JSON.stringify(url) : 'a detached frame'}`);
  }
}

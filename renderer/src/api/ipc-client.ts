/**
 * The Electron transport: `window.tempora` (electron/preload) resolves every call to main's
 * outcome, { ok: true, value } or { ok: false, error, code, field? }, because an Error crossing
 * IPC and the context bridge keeps only its message. Here the outcome is validated and a failure
 * becomes the ApiError it describes, so UI code sees the same errors as over the bridge.
 */
import type { ApiCallName, ApiRequest, ApiResponse, TemporaApi, TemporaIpcApi } from '../../../shared/api-contract';
import { valueOfOutcome } from '../../../shared/api-error';
import { apiFromCall } from './api-from-call';
import { asApiError } from './errors';

/** The TemporaApi over the preload's outcome-returning calls. */
export function ipcApi(ipc: TemporaIpcApi): TemporaApi {
  const call = async <N extends ApiCallName>(name: N, request: ApiRequest<N>): Promise<ApiResponse<N>> => {
    let outcome: unknown;
    try {
      outcome = await (ipc[name] as (request: ApiRequest<N>) => Promise<unknown>)(request);
    } catch (error) {
      // Not an answer of the call: main refused the sender, or Electron could not deliver it.
      throw asApiError(error);
    }
    return valueOfOutcome(outcome, 'Tempora') as ApiResponse<N>;
  };
  return apiFromCall(call, (listener) => ipc.onEvent(listener));
}

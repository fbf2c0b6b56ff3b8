/** A TemporaApi from one generic call function: the same object shape for both transports. */
import { apiCalls, type ApiCallName, type ApiEventEnvelope, type ApiRequest, type ApiResponse, type TemporaApi } from '../../../shared/api-contract';

export type CallFunction = <N extends ApiCallName>(name: N, request: ApiRequest<N>) => Promise<ApiResponse<N>>;

/** One function per call of the contract (exactly those), each going through `call`, plus onEvent. */
export function apiFromCall(call: CallFunction, onEvent: (listener: (event: ApiEventEnvelope) => void) => () => void): TemporaApi {
  const calls = Object.fromEntries((Object.keys(apiCalls) as ApiCallName[]).map((name) => [name, (request: ApiRequest<typeof name>) => call(name, request)]));
  return { ...calls, onEvent } as TemporaApi;
}

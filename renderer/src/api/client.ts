/**
 * The renderer's one client interface (TemporaApi) and its two transports: Electron IPC through the
 * preload's `window.tempora`, or, in a browser, the loopback bridge's WebSocket.
 */
import type { ApiCallName, ApiRequest, ApiResponse, TemporaApi } from '../../../shared/api-contract';
import { BridgeClient } from './bridge-client';
import { bridgeSocketUrl, takeBridgeToken } from './bridge-token';
import { alwaysOpen, type ConnectionSource } from './connection';

export interface Client {
  api: TemporaApi;
  connection: ConnectionSource;
  transport: 'ipc' | 'bridge';
  /** Reconnect now (bridge only). */
  retry(): void;
}

function bridgeApi(bridge: BridgeClient): TemporaApi {
  const c =
    <N extends ApiCallName>(name: N) =>
    (request: ApiRequest<N>): Promise<ApiResponse<N>> =>
      bridge.call(name, request);
  return {
    listFacts: c('listFacts'),
    search: c('search'),
    factDetails: c('factDetails'),
    editFact: c('editFact'),
    closeFact: c('closeFact'),
    forgetFact: c('forgetFact'),
    forgetEntity: c('forgetEntity'),
    listEntities: c('listEntities'),
    exportMemory: c('exportMemory'),
    previewImport: c('previewImport'),
    importMemory: c('importMemory'),
    listConversations: c('listConversations'),
    createConversation: c('createConversation'),
    renameConversation: c('renameConversation'),
    deleteConversation: c('deleteConversation'),
    conversationMessages: c('conversationMessages'),
    sendMessage: c('sendMessage'),
    stopMessage: c('stopMessage'),
    modelStatus: c('modelStatus'),
    listCatalogue: c('listCatalogue'),
    downloadModel: c('downloadModel'),
    cancelDownload: c('cancelDownload'),
    loadModel: c('loadModel'),
    unloadModel: c('unloadModel'),
    pickModelFile: c('pickModelFile'),
    retryParkedJobs: c('retryParkedJobs'),
    onEvent: (listener) => bridge.onEvent(listener),
  };
}

/** `window.tempora` when the Electron preload exposed it, else the bridge of the page's own host. */
export function createClient(): Client {
  const ipc = window.tempora;
  if (ipc) return { api: ipc, connection: alwaysOpen(), transport: 'ipc', retry: () => undefined };
  const token = takeBridgeToken();
  const bridge = new BridgeClient(token === null ? null : bridgeSocketUrl(token));
  return { api: bridgeApi(bridge), connection: bridge, transport: 'bridge', retry: () => bridge.retryNow() };
}

/** A readable message from whatever a call threw (Electron prefixes "Error invoking remote method"). */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Error invoking remote method '[^']+': (?:Error: )?/, '');
}

/**
 * The preload: runs sandboxed, before the page, and exposes exactly the calls of
 * shared/api-contract.ts as `window.tempora` - no generic invoke/send, no ipcRenderer, no Node.
 *
 * It is bundled as one CommonJS file (see electron.vite.config.ts) because a sandboxed preload can
 * only `require('electron')`. The contract is imported for its types only, so the preload carries
 * no schema code; main validates every payload.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { API_GLOBAL, ApiCallName, TemporaApi, apiCalls } from '../../shared/api-contract';

/** Checked against the contract by the type: a renamed channel fails the typecheck. */
const channels: { readonly [N in ApiCallName]: (typeof apiCalls)[N]['channel'] } = {
  listFacts: 'memory:listFacts',
};

const api: TemporaApi = {
  listFacts: (request) => ipcRenderer.invoke(channels.listFacts, request),
};

const globalName: typeof API_GLOBAL = 'tempora';
contextBridge.exposeInMainWorld(globalName, api);

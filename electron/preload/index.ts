/**
 * The preload: runs sandboxed, before the page, and exposes exactly the calls of
 * shared/api-contract.ts as `window.tempora`, plus `onEvent` - no generic invoke/send, no
 * ipcRenderer, no Node, no IPC event objects.
 *
 * Each call resolves to main's outcome, { ok: true, value } or { ok: false, error, code, field? }
 * (shared/api-error.ts), passed on as it came: an Error thrown here would reach the page with its
 * message only (contextBridge copies errors without their properties), so the page's client
 * (renderer/src/api/ipc-client.ts) validates the outcome and throws the ApiError itself.
 *
 * It is bundled as one CommonJS file (see electron.vite.config.ts) because a sandboxed preload can
 * only `require('electron')`. The contract is imported for its types only, so the preload carries
 * no schema code; main validates every payload.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { API_GLOBAL, ApiCallName, ApiEventEnvelope, EVENT_CHANNEL, TemporaIpcApi, apiCalls } from '../../shared/api-contract';

/** Checked against the contract by the type: a renamed, missing or extra channel fails the typecheck. */
const channels: { readonly [N in ApiCallName]: (typeof apiCalls)[N]['channel'] } = {
  listFacts: 'memory:listFacts',
  search: 'memory:search',
  factDetails: 'memory:factDetails',
  timelineWindow: 'memory:timelineWindow',
  changeFeed: 'memory:changeFeed',
  slotHistory: 'memory:slotHistory',
  editFact: 'memory:editFact',
  closeFact: 'memory:closeFact',
  forgetFact: 'memory:forgetFact',
  factSources: 'memory:factSources',
  forgetEntity: 'memory:forgetEntity',
  listEntities: 'memory:listEntities',
  suggestNames: 'memory:suggestNames',
  exportMemory: 'memory:export',
  exportBegin: 'memory:exportBegin',
  exportRead: 'memory:exportRead',
  exportCancel: 'memory:exportCancel',
  previewImport: 'memory:previewImport',
  importMemory: 'memory:import',
  uploadImportFile: 'memory:uploadImportFile',
  previewImportUpload: 'memory:previewImportUpload',
  importUpload: 'memory:importUpload',
  cancelImportUpload: 'memory:cancelImportUpload',
  listConversations: 'chat:listConversations',
  createConversation: 'chat:createConversation',
  renameConversation: 'chat:renameConversation',
  deleteConversation: 'chat:deleteConversation',
  conversationMessages: 'chat:messages',
  sendMessage: 'chat:send',
  stopMessage: 'chat:stop',
  modelStatus: 'models:status',
  listCatalogue: 'models:catalogue',
  downloadModel: 'models:download',
  cancelDownload: 'models:cancelDownload',
  listDownloads: 'models:downloads',
  loadModel: 'models:load',
  unloadModel: 'models:unload',
  pickModelFile: 'models:pickFile',
  timeSettings: 'app:timeSettings',
  readTime: 'app:readTime',
  firstRecorded: 'memory:firstRecorded',
  setTimeZone: 'app:setTimeZone',
  mcpStatus: 'app:mcpStatus',
  setMcpEnabled: 'app:setMcpEnabled',
  rotateMcpToken: 'app:rotateMcpToken',
  agentClients: 'app:agentClients',
  connectAgent: 'app:connectAgent',
  disconnectAgent: 'app:disconnectAgent',
  putCommandOnPath: 'app:putCommandOnPath',
  memoryLocation: 'app:memoryLocation',
  retryParkedJobs: 'ingestion:retryParked',
  pickChatExport: 'history:pickFile',
  uploadChatExport: 'history:upload',
  previewChatImport: 'history:preview',
  importChats: 'history:import',
  backfillStatus: 'ingestion:backfill',
  setBackfillPaused: 'ingestion:setBackfillPaused',
  cancelBackfill: 'ingestion:cancelBackfill',
  requeueBackfill: 'ingestion:requeueBackfill',
  reviewSettings: 'review:settings',
  setReviewBeforeRemembering: 'review:setEnabled',
  pendingReviews: 'review:pending',
  approveReview: 'review:approve',
  rejectReview: 'review:reject',
  messageLearning: 'learning:message',
  undoLearning: 'learning:undo',
  redoLearning: 'learning:redo',
  setConversationLearning: 'chat:setLearning',
  syncState: 'sync:state',
  saveSync: 'sync:save',
  syncNow: 'sync:now',
  setSyncPaused: 'sync:setPaused',
  listParkedMessages: 'ingestion:parkedMessages',
  retryParkedMessage: 'ingestion:retryParkedMessage',
};

const eventChannel: typeof EVENT_CHANNEL = 'tempora:event';

/** The function for one call: invokes that call's channel, and only that one, and resolves to main's outcome. */
function call<N extends ApiCallName>(name: N): TemporaIpcApi[N] {
  const channel = channels[name];
  return ((request: unknown) => ipcRenderer.invoke(channel, request ?? {})) as TemporaIpcApi[N];
}

const api: TemporaIpcApi = {
  listFacts: call('listFacts'),
  search: call('search'),
  factDetails: call('factDetails'),
  timelineWindow: call('timelineWindow'),
  changeFeed: call('changeFeed'),
  slotHistory: call('slotHistory'),
  editFact: call('editFact'),
  closeFact: call('closeFact'),
  forgetFact: call('forgetFact'),
  factSources: call('factSources'),
  forgetEntity: call('forgetEntity'),
  listEntities: call('listEntities'),
  suggestNames: call('suggestNames'),
  exportMemory: call('exportMemory'),
  exportBegin: call('exportBegin'),
  exportRead: call('exportRead'),
  exportCancel: call('exportCancel'),
  previewImport: call('previewImport'),
  importMemory: call('importMemory'),
  uploadImportFile: call('uploadImportFile'),
  previewImportUpload: call('previewImportUpload'),
  importUpload: call('importUpload'),
  cancelImportUpload: call('cancelImportUpload'),
  listConversations: call('listConversations'),
  createConversation: call('createConversation'),
  renameConversation: call('renameConversation'),
  deleteConversation: call('deleteConversation'),
  conversationMessages: call('conversationMessages'),
  sendMessage: call('sendMessage'),
  stopMessage: call('stopMessage'),
  modelStatus: call('modelStatus'),
  listCatalogue: call('listCatalogue'),
  downloadModel: call('downloadModel'),
  cancelDownload: call('cancelDownload'),
  listDownloads: call('listDownloads'),
  loadModel: call('loadModel'),
  unloadModel: call('unloadModel'),
  pickModelFile: call('pickModelFile'),
  timeSettings: call('timeSettings'),
  readTime: call('readTime'),
  firstRecorded: call('firstRecorded'),
  setTimeZone: call('setTimeZone'),
  mcpStatus: call('mcpStatus'),
  setMcpEnabled: call('setMcpEnabled'),
  rotateMcpToken: call('rotateMcpToken'),
  agentClients: call('agentClients'),
  connectAgent: call('connectAgent'),
  disconnectAgent: call('disconnectAgent'),
  putCommandOnPath: call('putCommandOnPath'),
  memoryLocation: call('memoryLocation'),
  retryParkedJobs: call('retryParkedJobs'),
  pickChatExport: call('pickChatExport'),
  uploadChatExport: call('uploadChatExport'),
  previewChatImport: call('previewChatImport'),
  importChats: call('importChats'),
  backfillStatus: call('backfillStatus'),
  setBackfillPaused: call('setBackfillPaused'),
  cancelBackfill: call('cancelBackfill'),
  requeueBackfill: call('requeueBackfill'),
  reviewSettings: call('reviewSettings'),
  setReviewBeforeRemembering: call('setReviewBeforeRemembering'),
  pendingReviews: call('pendingReviews'),
  approveReview: call('approveReview'),
  rejectReview: call('rejectReview'),
  messageLearning: call('messageLearning'),
  undoLearning: call('undoLearning'),
  redoLearning: call('redoLearning'),
  setConversationLearning: call('setConversationLearning'),
  syncState: call('syncState'),
  saveSync: call('saveSync'),
  syncNow: call('syncNow'),
  setSyncPaused: call('setSyncPaused'),
  listParkedMessages: call('listParkedMessages'),
  retryParkedMessage: call('retryParkedMessage'),
  onEvent(listener) {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    // The page gets the event's envelope only, never Electron's IpcRendererEvent (it has `sender`).
    const forward = (_event: IpcRendererEvent, envelope: ApiEventEnvelope) => listener(envelope);
    ipcRenderer.on(eventChannel, forward);
    return () => {
      ipcRenderer.removeListener(eventChannel, forward);
    };
  },
};

const globalName: typeof API_GLOBAL = 'tempora';
contextBridge.exposeInMainWorld(globalName, api);

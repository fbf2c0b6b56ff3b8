export { TemporaEngine, openEngine, type EngineOptions } from './engine';
export { createApiHandlers, dispatchCall, type ApiHandlers, type HandlerOptions } from './api-handlers';

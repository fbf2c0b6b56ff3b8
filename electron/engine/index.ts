export { TemporaEngine, openEngine, type EngineOptions } from './engine';
export { createApiHandlers, dispatchCall, type ApiHandlers, type HandlerOptions } from './api-handlers';
export { searchMemory, searchMemoryText, type SearchQuery } from './memory-search';
export { fitLabel, type CatalogueModel } from './catalogue';

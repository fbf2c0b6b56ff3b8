export { TemporaEngine, openEngine, type EngineOptions } from './engine';
export { createApiHandlers, dispatchCall, type ApiHandlers, type HandlerOptions } from './api-handlers';
export { searchMemory, searchMemoryText, type SearchQuery } from './memory-search';
export { asksNow, notNow, notNowWords, type NotNow } from './search-not-now';
export { fitLabel, type CatalogueModel } from './catalogue';

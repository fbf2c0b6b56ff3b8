export { Memory, openMemory, type MemoryOptions, type ListFactsQuery, type ObserveSummary, type MemoryChange, type FactProvenance } from './memory';
export { MemoryInputError } from './memory-errors';
export { defaultDataDir, databasePath } from './store/data-dir';
export { steppingClock, systemClock, type Clock } from './store/clock';
export type { SearchHit, SearchOptions, ScorePart } from './text-search/search';
export type { Forgotten } from './store/forget';
export type { FactEdit } from './temporal/fact-edit';
export type { ImportSummary } from './transfer/memory-import';

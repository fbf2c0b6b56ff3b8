export { Memory, openMemory, type MemoryOptions, type ListFactsQuery, type ObserveSummary, type MemoryChange, type FactProvenance } from './memory';
export { MemoryInputError } from './memory-errors';
export { defaultDataDir, databasePath } from './data-dir';
export { steppingClock, systemClock, type Clock } from './clock';
export type { SearchHit, SearchOptions, ScorePart } from './search';
export type { Forgotten } from './forget';
export type { FactEdit } from './fact-edit';
export type { ImportSummary } from './memory-import';

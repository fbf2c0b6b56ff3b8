/**
 * Query keys for the engine's answers. Each key starts with the part of the engine it reads, so
 * one event invalidates all of them: memoryChanged → ['memory', …], modelsChanged → ['models', …].
 * Keys under ['chat', …] change only when the renderer says so (a finished turn).
 */
export const memoryKeys = {
  all: ['memory'] as const,
  /** The Facts screen's search / list for its filters. */
  factList: (filters: object) => ['memory', 'fact-list', filters] as const,
  /** Every version of every fact held now, or as held at knownAt (the timeline). */
  history: (knownAt: string | null) => ['memory', 'history', knownAt] as const,
  /** A block of the timeline's rows × a valid-time range (timelineWindow), and its as-of answers. */
  timeline: (window: object) => ['memory', 'timeline', window] as const,
  /** When the first fact was recorded (firstRecorded): stale with the timeline. */
  firstRecorded: ['memory', 'timeline', 'first-recorded'] as const,
  entities: ['memory', 'entities'] as const,
  /**
   * Names suggested for a filter as the user types (suggestNames); under 'entities', so it goes stale
   * when the entities or facts do (memory-change-scope.ts).
   */
  suggestions: (kind: 'entity' | 'predicate', text: string) => ['memory', 'entities', 'suggestions', kind, text] as const,
  /** factDetails for one fact (its page, and the chips under an answer). */
  fact: (id: string) => ['memory', 'fact', id] as const,
  conversations: ['memory', 'conversations'] as const,
};

export const modelKeys = {
  all: ['models'] as const,
  status: ['models', 'status'] as const,
  catalogue: ['models', 'catalogue'] as const,
};

export const chatKeys = {
  messages: (conversationId: string) => ['chat', 'messages', conversationId] as const,
};

/** The app's settings as main holds them; changed only from the settings controls. */
export const settingsKeys = {
  /** The zone every time is shown and read in (timeSettings). */
  time: ['settings', 'time'] as const,
  /** Whether the desktop app serves MCP over HTTP, and its URL and token (mcpStatus). */
  mcp: ['settings', 'mcp'] as const,
  /** Where the memory lives on this computer (memoryLocation): fixed while the app runs. */
  location: ['settings', 'location'] as const,
};

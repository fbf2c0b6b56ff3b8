/**
 * What memory needs from an embedding model to keep its vector index in sync (vector-sync.ts):
 * memory's own port, so it needs no llm types. The engine adapts the loaded model to it
 * (engine/vector-service.ts), adding the model's document prefix.
 */
export interface TextEmbedder {
  /** Vector length; 0 while no embedding model is loaded (sync then refuses to run). */
  readonly dimensions: number;
  /** One vector of `dimensions` floats per text, in order; rejects when `signal` aborts. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * The model interfaces the memory engine and the chat depend on. Type-only: importing this file pulls
 * in nothing, so a scripted fake can implement the same ports in tests (`import type` them).
 * The real implementation is `ModelHost` (model-host.ts) over node-llama-cpp.
 */
import type { ZodType } from 'zod';

/** Tokens a call used: everything fed to the model (prompt, chat template) and everything it generated. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface StructuredRequest<T = unknown> {
  system?: string;
  prompt: string;
  /**
   * The answer's zod schema: the grammar's JSON Schema is generated from it (so generation is
   * constrained to it) and the answer is validated and typed with it. It must follow the rules in
   * structured-output.ts (an object, every property required, every string and array bounded:
   * `modelText(max)`, `z.enum`, `.max()`); one that does not fails the call with code `failed`.
   */
  schema: ZodType<T>;
  /** Generation stops here; a JSON value cut short by it is an `invalid_output` error. */
  maxTokens: number;
  /** Whole-call deadline; on expiry the call fails with a `timeout` ModelCallError. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * One independent, schema-constrained call (no history carried between calls). Resolves with the
 * answer parsed by `req.schema` (a fake must return what the schema parses too). Rejects with a
 * ModelCallError ('not_loaded' | 'prompt_too_long' | 'timeout' | 'aborted' | 'invalid_output' | 'failed');
 * an answer the schema refuses is 'invalid_output', its message naming the fields at fault.
 */
export interface StructuredModel {
  completeJson<T>(req: StructuredRequest<T>): Promise<{ value: T } & ModelUsage>;
}

export interface Embedder {
  /** Vector length; 0 while no embedding model is loaded. */
  readonly dimensions: number;
  /** One L2-normalised vector per text, in order. Texts longer than the model's context are truncated. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatStreamOptions {
  /** Called with each piece of text as it is generated. */
  onToken: (text: string) => void;
  /** Aborting stops generation; the promise then resolves with `stopped: true` and the partial text. */
  signal?: AbortSignal;
  maxTokens?: number;
}

export interface ChatModel {
  /** Tokens the model's context holds; 0 while no chat model is loaded. */
  readonly contextSize: number;
  /** Tokens `text` takes for the loaded chat model (no special tokens). */
  countTokens(text: string): number;
  streamChat(messages: ChatMessage[], opts: ChatStreamOptions): Promise<{ text: string; stopped: boolean } & ModelUsage>;
}

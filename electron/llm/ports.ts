/**
 * The model interfaces the memory engine and the chat depend on. Type-only: importing this file pulls
 * in nothing, so a scripted fake can implement the same ports in tests (`import type` them).
 * The real implementation is `ModelHost` (model-host.ts) over node-llama-cpp.
 */

/**
 * The subset of JSON Schema that node-llama-cpp's JSON-schema grammar supports and that
 * `validateJson` (json-schema-validate.ts) checks. Objects never allow properties that are not listed
 * (as in the grammar); properties not in `required` are optional.
 * Keep every string bounded (`maxLength`, `enum` or `format`) and every array bounded (`maxItems`):
 * a weak model can otherwise fill `maxTokens` with one endless string.
 */
export type JsonSchema =
  | JsonSchemaObject
  | { type: 'array'; items?: JsonSchema; minItems?: number; maxItems?: number; description?: string }
  | { type: 'string'; minLength?: number; maxLength?: number; description?: string }
  | { type: 'string'; format: 'date' | 'date-time' | 'time'; description?: string }
  | { type: 'boolean' | 'null' | 'integer' | 'number'; description?: string }
  | { enum: readonly (string | number | boolean | null)[]; description?: string }
  | { const: string | number | boolean | null; description?: string }
  | { oneOf: readonly JsonSchema[]; description?: string };

export interface JsonSchemaObject {
  type: 'object';
  properties?: { readonly [key: string]: JsonSchema };
  required?: readonly string[];
  additionalProperties?: false;
  description?: string;
}

/** Tokens a call used: everything fed to the model (prompt, chat template) and everything it generated. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface StructuredRequest {
  system?: string;
  prompt: string;
  /** The answer is constrained to this schema while generating, and validated against it after. */
  schema: JsonSchemaObject;
  /** Generation stops here; a JSON value cut short by it is an `invalid_output` error. */
  maxTokens: number;
  /** Whole-call deadline; on expiry the call fails with a `timeout` ModelCallError. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * One independent, schema-constrained call (no history carried between calls). Rejects with a
 * ModelCallError ('not_loaded' | 'prompt_too_long' | 'timeout' | 'aborted' | 'invalid_output' | 'failed').
 */
export interface StructuredModel {
  completeJson(req: StructuredRequest): Promise<{ value: unknown } & ModelUsage>;
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

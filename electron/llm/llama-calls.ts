/**
 * The three kinds of call over node-llama-cpp, each on its own context sequence so calls are
 * independent: a grammar-constrained answer (parsed and typed by its zod schema), a streamed chat
 * reply that stops on abort keeping its partial text, and L2-normalised embeddings. ModelHost owns
 * the models and contexts; these functions only use them.
 */
import { LlamaChat, type LlamaContext, type LlamaEmbeddingContext, type LlamaGrammar, type LlamaModel, type Token } from 'node-llama-cpp';
import type { Semaphore } from './async-semaphore';
import { structuredHistory, toChatHistory } from './chat-history';
import { ModelCallError } from './model-errors';
import type { ChatMessage, ChatStreamOptions, ModelUsage, StructuredRequest } from './ports';
import { decodeModelOutput } from './structured-output';

/** The caller's signal, an optional deadline and the host's unload signal, combined. */
export interface CallSignals { signal: AbortSignal; caller?: AbortSignal; timeout?: AbortSignal; timeoutMs?: number; unload: AbortSignal }

export function callSignals(unload: AbortSignal, caller?: AbortSignal, timeoutMs?: number): CallSignals {
  const timeout = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
  const signals = [unload, caller, timeout].filter((s): s is AbortSignal => s !== undefined);
  return { signal: AbortSignal.any(signals), caller, timeout, timeoutMs, unload };
}

/** Names why a call failed: its deadline, an unload, the caller, or the model itself. */
export function callError(error: unknown, s: CallSignals): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (s.timeout?.aborted) return new ModelCallError('timeout', `The model did not finish within ${s.timeoutMs} ms`, { cause: error });
  if (s.unload.aborted) return new ModelCallError('aborted', 'The model was unloaded during the call', { cause: error });
  if (s.caller?.aborted) return new ModelCallError('aborted', 'The call was cancelled', { cause: error });
  return new ModelCallError('failed', `The model call failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

function usageOf(sequence: { tokenMeter: { usedInputTokens: number; usedOutputTokens: number } }): ModelUsage {
  return { promptTokens: sequence.tokenMeter.usedInputTokens, completionTokens: sequence.tokenMeter.usedOutputTokens };
}

function normalised(vector: readonly number[], dimensions: number): Float32Array {
  const out = vector.length === 0 ? new Float32Array(dimensions) : Float32Array.from(vector);
  let norm = 0;
  for (const x of out) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/** One independent answer constrained by the grammar made from `req.schema`, then parsed and typed by that schema. */
export async function structuredCall<T>(
  context: LlamaContext,
  gate: Semaphore,
  grammar: LlamaGrammar,
  req: StructuredRequest<T>,
  s: CallSignals,
): Promise<{ value: T } & ModelUsage> {
  let text: string;
  let stopReason: string;
  let usage: ModelUsage;
  try {
    const release = await gate.acquire(s.signal);
    try {
      const sequence = context.getSequence();
      const chat = new LlamaChat({ contextSequence: sequence });
      try {
        const result = await chat.generateResponse(structuredHistory(req.system, req.prompt), {
          grammar,
          maxTokens: req.maxTokens,
          signal: s.signal,
          stopOnAbortSignal: false,
        });
        text = result.response;
        stopReason = result.metadata.stopReason;
        usage = usageOf(sequence);
      } finally {
        chat.dispose();
        await sequence.dispose();
      }
    } finally {
      release();
    }
  } catch (error) {
    throw callError(error, s);
  }
  const value = decodeModelOutput(text, req.schema, { stopReason, maxTokens: req.maxTokens });
  return { value, ...usage };
}

/** A streamed reply; an abort (caller or unload) ends it with `stopped: true` and the text so far. */
export async function streamChatCall(
  context: LlamaContext,
  gate: Semaphore,
  messages: readonly ChatMessage[],
  opts: ChatStreamOptions,
  s: CallSignals,
): Promise<{ text: string; stopped: boolean } & ModelUsage> {
  let streamed = '';
  let release: () => void;
  try {
    release = await gate.acquire(s.signal);
  } catch (error) {
    if (s.signal.aborted) return { text: '', stopped: true, promptTokens: 0, completionTokens: 0 };
    throw callError(error, s);
  }
  try {
    const sequence = context.getSequence();
    const chat = new LlamaChat({ contextSequence: sequence });
    try {
      const result = await chat.generateResponse(toChatHistory(messages), {
        maxTokens: opts.maxTokens,
        signal: s.signal,
        stopOnAbortSignal: true,
        onTextChunk: (chunk) => {
          streamed += chunk;
          opts.onToken(chunk);
        },
      });
      return { text: result.response, stopped: result.metadata.stopReason === 'abort', ...usageOf(sequence) };
    } catch (error) {
      if (!s.signal.aborted) throw callError(error, s);
      return { text: streamed, stopped: true, ...usageOf(sequence) };
    } finally {
      chat.dispose();
      await sequence.dispose();
    }
  } finally {
    release();
  }
}

/** Text that fits the embedding context (BOS/EOS included); longer input is cut at the token limit. */
function embeddingInput(context: LlamaEmbeddingContext, model: LlamaModel, contextSize: number, text: string): string | Token[] {
  const limit = contextSize - 1;
  if (context.calculateInputLength(text) < limit) return text;
  return model.tokenize(text, false).slice(0, Math.max(1, limit - 2));
}

/** One L2-normalised vector per text, in order (a zero vector for empty text). */
export async function embedCall(
  context: LlamaEmbeddingContext,
  model: LlamaModel,
  contextSize: number,
  dimensions: number,
  texts: readonly string[],
  s: CallSignals,
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  try {
    for (const text of texts) {
      s.signal.throwIfAborted();
      const embedding = await context.getEmbeddingFor(embeddingInput(context, model, contextSize, text));
      vectors.push(normalised(embedding.vector, dimensions));
    }
  } catch (error) {
    throw callError(error, s);
  }
  return vectors;
}

/**
 * What a tool answers: `structuredContent` (checked by the SDK against the output schema), the
 * summary in words and the same JSON as text for clients that read only text; and a tool error
 * (`isError: true`) naming the argument for anything the caller got wrong — never a protocol
 * failure. A write that meets another process's write (SQLITE_BUSY) is retried: each write is one
 * transaction, rolled back whole.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FactRecord } from '../../shared/memory-schema';
import { ApiError } from '../../shared/api-error';
import { escapeControls, escapeControlsInJson } from '../../shared/escape-controls';
import { isBusyError, MemoryInputError, MemoryStorageError } from '../memory/index';
import type { McpFact } from './tool-schemas';

/** A fact as the tools return it: the export record plus whether it is true and held now. */
export function withCurrent(fact: FactRecord, now: string): McpFact {
  const current = fact.expired_at === null && fact.valid_at <= now && (fact.invalid_at === null || fact.invalid_at > now);
  return { ...fact, current };
}

/**
 * A result: the summary in words (times in the user's zone, as people say them: fact-words.ts) as
 * the first text block, the serialized JSON beside it as the second (as the protocol suggests for
 * clients that read no structured content), and the structured content itself, ISO times and all.
 * Both text blocks have their control characters escaped (shared/escape-controls.ts: the words as the
 * command line shows them, the JSON with JSON escapes, so it parses to the stored text); the
 * structured content keeps the text as stored.
 */
export function ok<T extends Record<string, unknown>>(structured: T, summary: string): CallToolResult {
  return {
    content: [
      { type: 'text', text: escapeControls(summary, { lines: true }) },
      { type: 'text', text: escapeControlsInJson(JSON.stringify(structured)) },
    ],
    structuredContent: structured,
  };
}

/** The tool error for what a call threw; input errors name the argument ("facts:2: valid_at: …"). */
export function toolError(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: escapeControls(errorText(error), { lines: true }) }], isError: true };
}

function errorText(error: unknown): string {
  if (error instanceof MemoryInputError || error instanceof ApiError) {
    const raw = error instanceof MemoryInputError ? error.where : error.field;
    // The memory names a fact id "fact_id"; the tools' argument is "id".
    const field = raw === 'fact_id' ? 'id' : raw;
    const message = raw === 'fact_id' ? error.message.replace(/^fact_id: /, '') : error.message;
    const prefix = field && !message.startsWith(field) ? `${field}: ` : '';
    return `${prefix}${message}`;
  }
  if (isBusyError(error)) return 'the memory is busy with another Tempora process; try again in a moment';
  if (error instanceof MemoryStorageError) return error.message;
  return `Tempora failed: ${error instanceof Error ? error.message : String(error)}`;
}

const BUSY_RETRIES = 8;

/**
 * Runs `fn`, retrying while SQLite reports the database busy (another process's write won a race
 * the busy timeout does not cover, such as a read snapshot gone stale in WAL mode).
 */
export async function retryBusy<T>(fn: () => T | Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusyError(error) || attempt >= BUSY_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));
    }
  }
}

/** A tool body: its result, or the tool error for what it threw. */
export async function guarded(fn: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await retryBusy(fn);
  } catch (error) {
    return toolError(error);
  }
}

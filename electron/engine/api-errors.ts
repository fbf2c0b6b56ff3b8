/**
 * The edge where the engine's errors become the API's one error shape (shared/api-error.ts), for
 * both transports: electron/main/ipc.ts and the loopback bridge call outcomeOf() around
 * dispatchCall() and send what it gives, so a call's error keeps its code and field all the way
 * to the page.
 */
import { ApiError, failure, type ApiErrorData, type ApiOutcome } from '../../shared/api-error';
import { ModelCallError, ModelLoadError } from '../llm/model-errors';
import { MemoryInputError } from '../memory/index';
import type { z } from 'zod';

/** The API error for anything a call threw. */
export function toApiError(error: unknown): ApiErrorData {
  if (error instanceof ApiError) return error.toData();
  if (error instanceof MemoryInputError) return { code: error.code, message: textOf(error), field: error.where };
  if (error instanceof ModelLoadError || error instanceof ModelCallError) return { code: 'model', message: textOf(error), detail: error.code };
  return { code: 'internal', message: textOf(error) };
}

/** Runs a call and gives its outcome; never rejects. */
export async function outcomeOf(run: () => Promise<unknown>): Promise<ApiOutcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return failure(toApiError(error));
  }
}

function textOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text || 'the call failed';
}


/** The field the first issue is about: its path, or the first unexpected key of a strict object. */
export function issueField(error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  return path.length > 0 ? path.join('.') : undefined;
}

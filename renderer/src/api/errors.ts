/**
 * Errors as the UI sees them: every failed call rejects with an ApiError (shared/api-error.ts)
 * carrying `code` and, where the failure is about one, `field`; errorMessage() gives the text to
 * show for anything a call threw, reworded() the same error in other words (its kind kept).
 */
// Before any schema is built: the page's CSP forbids eval (see the file).
import '../../../shared/zod-no-eval';
import { ApiError, type ApiErrorCode } from '../../../shared/api-error';

export { ApiError, isApiError, type ApiErrorCode } from '../../../shared/api-error';

/** A readable message from whatever a call threw (Electron prefixes "Error invoking remote method"). */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Error invoking remote method '[^']+': (?:Error: )?/, '');
}

/** The request field an error is about (for a form to point at), if any. */
export function errorField(error: unknown): string | undefined {
  return error instanceof ApiError ? error.field : undefined;
}

/** An ApiError for anything else a transport caught (it keeps an ApiError as it is). */
export function asApiError(error: unknown, code: ApiErrorCode = 'internal'): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(code, errorMessage(error) || 'the call failed', { cause: error });
}

/**
 * The same error in other words (a form's, say): an ApiError keeps its code, field and detail, so
 * ErrorText still says its kind (a busy refusal as busy); anything else becomes an Error. The
 * original is the cause.
 */
export function reworded(error: unknown, message: string): Error {
  if (error instanceof ApiError) return new ApiError(error.code, message, { field: error.field, detail: error.detail, cause: error });
  return new Error(message, { cause: error });
}

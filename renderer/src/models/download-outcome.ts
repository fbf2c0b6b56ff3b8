/**
 * How a catalogue model's download ended, as its card says it: cancelled ("Download cancelled; it
 * can be resumed.") or failed (ErrorText). Told by what the error is, never by its words — a file
 * name or another failure's message may hold "cancel":
 *
 * - an API error with a detail: cancelled only when the detail is the model layer's 'cancelled'
 *   (ModelDownloadError's code, electron/llm/model-download.ts);
 * - one without (a failure outside the download's own, and the downloadProgress event, which
 *   carries words only; the engine sends a download's own failure as code 'model' with its code as
 *   detail): cancelled when this window asked to cancel that download and it then stopped — unless
 *   the page could not reach the core (disconnected, busy), which says nothing of the download.
 */
import { isApiError } from '../api/errors';

/** The model layer's code for a download the user stopped, as an API error's detail. */
export const DOWNLOAD_CANCELLED = 'cancelled';

/** `error`: what the download ended with (null: nothing failed); `cancelAsked`: this window asked to cancel it. */
export function downloadCancelled(error: unknown, cancelAsked: boolean): boolean {
  if (error === null || error === undefined) return false;
  if (isApiError(error)) {
    if (error.detail !== undefined) return error.code === 'model' && error.detail === DOWNLOAD_CANCELLED;
    if (error.code === 'disconnected' || error.code === 'busy') return false;
  }
  return cancelAsked;
}

/** The message to show for a query's error (null when there is none). */
import { errorMessage } from '../api/client';

export function queryError(error: unknown): string | null {
  return error === null || error === undefined ? null : errorMessage(error);
}

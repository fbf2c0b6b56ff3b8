/**
 * The path a request names, read once and strictly, before anything is decided on it: the page,
 * the assets, the API path and the WebSocket upgrade all see the same decoded, normalised path.
 * Pure, unit-testable.
 *
 * - Only the origin form (`/path?query`) is accepted; an absolute URL, `*` or anything else is 400.
 * - The path is percent-decoded exactly once (as UTF-8; an overlong or broken sequence is 400), so
 *   `/%69ndex.html` and `/index%2ehtml` name `/index.html`, and nothing below decodes it again.
 * - Encoded slashes or backslashes (`%2f`, `%5c`), a backslash, NUL or any other control
 *   character, a `#`, and `..` segments (encoded or not) are 400: no browser sends them for a page
 *   of this bridge, and each is a way of naming something else than what is checked.
 * - The rest is normalised with path.posix (`//` and `.` segments collapse) and always starts with `/`.
 */
import { posix } from 'node:path';

export type RequestTarget = { ok: true; path: string; query: URLSearchParams } | { ok: false; status: 400; message: string };

/** The longest request target read (browsers send far less; Node refuses long headers anyway). */
export const MAX_TARGET_LENGTH = 8 * 1024;

/** Reads `req.url` as it came on the request line. */
export function readRequestTarget(rawUrl: string | undefined): RequestTarget {
  const raw = rawUrl ?? '';
  if (raw.length > MAX_TARGET_LENGTH) return refuse('the address is too long');
  if (!raw.startsWith('/')) return refuse('the request must name a path on this server (it begins with /)');
  const queryAt = raw.indexOf('?');
  const rawPath = queryAt < 0 ? raw : raw.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : raw.slice(queryAt + 1));
  if (rawPath.includes('#')) return refuse('the path may not contain #');
  if (/%(2f|5c)/i.test(rawPath)) return refuse('encoded slashes are not accepted in the path');
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return refuse('the path is not valid percent-encoded UTF-8');
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f\\]/.test(decoded)) return refuse('the path contains a control character or a backslash');
  if (decoded.split('/').includes('..')) return refuse('the path may not contain .. segments');
  const path = posix.normalize(decoded);
  return { ok: true, path, query };
}

/** The path again percent-encoded segment by segment: for code that decodes once itself. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function refuse(message: string): RequestTarget {
  return { ok: false, status: 400, message: `Bad request: ${message}.` };
}

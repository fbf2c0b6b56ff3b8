/**
 * Where the renderer is loaded from, and which URLs count as "the app itself". Pure functions (no
 * electron import) so they can be unit-tested.
 *
 * Production: the built renderer is served from `app://tempora/` by electron/main/protocol.ts
 * (a custom secure scheme instead of file://, as Electron's security checklist advises).
 * Development: electron-vite dev serves it over http and passes the URL in ELECTRON_RENDERER_URL.
 */
import { resolve, sep } from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'tempora';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export interface RendererLocation {
  /** The URL the main window loads. */
  entryUrl: string;
  /** "scheme://host[:port]" that every trusted frame URL must have. */
  origin: string;
  dev: boolean;
}

/** devServerUrl is honoured only when the app is not packaged. */
export function rendererLocation(options: { isPackaged: boolean; devServerUrl: string | undefined }): RendererLocation {
  if (!options.isPackaged && options.devServerUrl) {
    const url = new URL(options.devServerUrl);
    return { entryUrl: url.href, origin: originOf(url), dev: true };
  }
  return { entryUrl: APP_ENTRY_URL, origin: `${APP_SCHEME}://${APP_HOST}`, dev: false };
}

/** "scheme://host[:port]". (URL.origin is "null" for non-special schemes such as app:, so build it.) */
function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/** True when `url` belongs to the app's own renderer (same scheme, host and port). */
export function isAppUrl(url: string | undefined | null, origin: string): boolean {
  if (!url) return false;
  try {
    return originOf(new URL(url)) === origin;
  } catch {
    return false;
  }
}

/**
 * Maps an app:// request URL to a file inside rendererDir, or null when it is not ours or would
 * escape the directory ("/" serves index.html).
 */
export function rendererFileFor(requestUrl: string, rendererDir: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  if (pathname === '/' || pathname === '') pathname = '/index.html';
  const base = resolve(rendererDir);
  const file = resolve(base, `.${pathname}`);
  return file.startsWith(base + sep) ? file : null;
}

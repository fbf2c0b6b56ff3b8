/**
 * The renderer's Content-Security-Policy, wherever it is served: by Electron's app:// protocol
 * (electron/main/protocol.ts), into the built index.html as a <meta> tag (electron.vite.config.ts),
 * and by the loopback bridge (electron/server/static-http.ts), whose policy differs only in
 * `connect-src`. Plain strings, no imports: Electron main, the bridge and the build config all
 * read them from here, so neither face imports the other.
 */

const COMMON = [
  "default-src 'none'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
];

/** The production policy with the given connect-src sources: only the app's own files, no inline code. */
export function rendererCsp(connectSrc: readonly string[]): string {
  return [...COMMON, "script-src 'self'", "style-src 'self'", `connect-src ${connectSrc.join(' ')}`].join('; ');
}

/** Production (Electron): the page talks to main over IPC only, so connect-src is its own origin. */
export const RENDERER_CSP = rendererCsp(["'self'"]);

/** A policy for a <meta> tag, which cannot carry frame-ancestors (browsers ignore it there). */
export function metaCsp(policy: string): string {
  return policy
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors'))
    .join('; ');
}

export const RENDERER_META_CSP = metaCsp(RENDERER_CSP);

/**
 * The loopback bridge: the page may open a WebSocket to the bridge itself and nothing else. Both
 * host names are listed because the page may be opened as 127.0.0.1 or localhost.
 */
export function bridgeCsp(port: number): string {
  return rendererCsp([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]);
}

/**
 * Development (electron-vite dev): Vite's React-refresh preamble is an inline script, Vite injects
 * CSS as <style> elements, and the HMR client talks over a WebSocket to the dev server.
 */
export const RENDERER_DEV_CSP = [
  ...COMMON,
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self' ws://localhost:* ws://127.0.0.1:*",
].join('; ');

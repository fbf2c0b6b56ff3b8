/**
 * Content-Security-Policy of the renderer. No electron import: electron.vite.config.ts reads the
 * production policy from here too (it writes it into the built index.html as a <meta> tag).
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

/** Production: only the app's own files; no inline code, no remote anything. */
export const RENDERER_CSP = [...COMMON, "script-src 'self'", "style-src 'self'", "connect-src 'self'"].join('; ');

/** The same policy for a <meta> tag, which cannot carry frame-ancestors (browsers ignore it there). */
export const RENDERER_META_CSP = RENDERER_CSP.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

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

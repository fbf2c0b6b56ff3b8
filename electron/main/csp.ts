/**
 * Content-Security-Policy of the renderer. The policies live in electron/server/csp.ts (plain
 * strings, no electron import) because the loopback bridge serves the same renderer with the same
 * policy; electron.vite.config.ts reads the production policy from here too.
 */
export { RENDERER_CSP, RENDERER_DEV_CSP, RENDERER_META_CSP } from '../server/csp';

/**
 * Serves the built renderer from app://tempora/ instead of file://: the page gets a real origin
 * (so IPC sender checks and the CSP have something precise to match) and cannot read arbitrary
 * local files by URL. Every response carries the production CSP as a header.
 */
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { contentTypeOf } from '../engine/static-files';
import { RENDERER_CSP } from '../../shared/csp';
import { APP_SCHEME, rendererFileFor } from './renderer-location';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
  ]);
}

/** Must run after the app is ready. rendererDir: the electron-vite output (out/renderer). */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const headers = {
      'Content-Security-Policy': RENDERER_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
    };
    if (request.method !== 'GET') return new Response('Method not allowed', { status: 405, headers });
    const file = rendererFileFor(request.url, rendererDir);
    const type = file ? contentTypeOf(file) : undefined;
    if (!file || !type) return new Response('Not found', { status: 404, headers });
    try {
      const body = await readFile(file);
      return new Response(body, { status: 200, headers: { ...headers, 'Content-Type': type } });
    } catch {
      return new Response('Not found', { status: 404, headers });
    }
  });
}

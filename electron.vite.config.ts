/**
 * Build of the three Electron parts (electron-vite 6):
 *
 * - main      electron/main/index.ts    -> out/main/index.js   (ESM: package.json has "type": "module")
 *             electron/cli/main.ts      -> out/main/cli.js     (the `tempora` command in the package)
 * - preload   electron/preload/index.ts -> out/preload/index.cjs (CommonJS, one self-contained file)
 * - renderer  renderer/index.html       -> out/renderer/        (React)
 *
 * Why the preload is CommonJS: the window runs with `sandbox: true`, and a sandboxed preload is
 * evaluated as a classic script that may only `require('electron')` (plus a few polyfilled
 * built-ins). It can neither be an ES module nor load chunks or packages from node_modules.
 * electron-vite 6 picks "es" for every Node-side bundle of a "type": "module" package unless the
 * output format is set, so the preload sets `format: 'cjs'`, names its entry `.cjs` (a `.js` file
 * would be read as ESM inside this package), disables `externalizeDeps` so that everything it uses
 * (zod via shared/) is bundled in, and forbids code splitting.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { RENDERER_META_CSP } from './shared/csp';

const root = import.meta.dirname;

/** Native addons (and the libraries that load them) must be loaded from node_modules at runtime. */
export const NATIVE_MODULES = ['better-sqlite3', 'node-llama-cpp', '@lancedb/lancedb', 'apache-arrow'];

/**
 * Writes the CSP into the built index.html as a <meta> tag: a second line of defence for Electron,
 * and the policy of record when the same build is served to a browser by the loopback bridge.
 * Not applied in dev, where Vite's HMR client needs inline scripts and a WebSocket.
 */
function cspMetaTag(): Plugin {
  return {
    name: 'tempora:csp-meta',
    apply: 'build',
    transformIndexHtml() {
      return [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: RENDERER_META_CSP }, injectTo: 'head-prepend' }];
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Every package.json dependency stays external (loaded from node_modules); the native ones
      // are listed explicitly so they stay external even if they move between dependency lists.
      externalizeDeps: { include: NATIVE_MODULES },
      rolldownOptions: {
        // The worker threads are entries of their own: a large import starts out/main/bulk-load-worker.js,
        // a first sync out/main/segment-check-worker.js (electron/memory/store/worker-thread.ts looks there).
        // The `tempora` command is one more entry (out/main/cli.js), sharing the chunks: the package's
        // bin/tempora runs it with the app's binary as Node (resources/packaging/linux/tempora.sh).
        input: {
          index: resolve(root, 'electron/main/index.ts'),
          'bulk-load-worker': resolve(root, 'electron/memory/transfer/bulk-load-worker.ts'),
          'segment-check-worker': resolve(root, 'electron/sync/segment-check-worker.ts'),
          cli: resolve(root, 'electron/cli/main.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), cspMetaTag()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves bundles unminified by default; the UI is served to a browser too.
      minify: true,
      rolldownOptions: {
        input: { index: resolve(root, 'renderer/index.html') },
      },
    },
  },
});

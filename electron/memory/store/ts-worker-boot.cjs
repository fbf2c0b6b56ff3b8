// Starts a TypeScript worker when running from source (tsx: the CLI, tests, benchmarks); the built
// app starts the bundled .js worker directly. workerData: { entry: path of the .ts file, data }.
// tsx's CommonJS hook, registered for this thread: it compiles in the thread itself (its ESM API
// first starts a loader thread), and without a namespace its compiled files are cached on disk
// across runs (a namespaced require compiles them again each time, ~0.1 s of esbuild).
const { workerData } = require('node:worker_threads');
const { register } = require('tsx/cjs/api');

register();
require(workerData.entry);

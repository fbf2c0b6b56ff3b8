// Starts a TypeScript worker when running from source (tsx: the CLI, tests, benchmarks); the built
// app starts the bundled .js worker directly. workerData: { entry: path of the .ts file, data }.
// tsx's CommonJS hook compiles in this thread; its ESM API would first start a loader thread
// (~0.2 s vs ~0.3 s until the worker runs, on 2 cores).
const { workerData } = require('node:worker_threads');
const { require: tsRequire } = require('tsx/cjs/api');

tsRequire(workerData.entry, __filename);

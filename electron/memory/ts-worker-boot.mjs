// Starts a TypeScript worker when running from source (tsx: the CLI, tests, benchmarks); the built
// app starts the bundled .js worker directly. workerData: { entry: path of the .ts file, data }.
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.entry, import.meta.url);

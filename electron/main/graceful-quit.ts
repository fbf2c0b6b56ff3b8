/**
 * Quitting without losing work: the first quit is held (before-quit's preventDefault), `shutdown`
 * runs (the engine lets the ingestion job in flight finish or returns it to the queue, stops chats,
 * closes SQLite and LanceDB), and then the app exits for real. Further quit requests while it runs
 * are absorbed. A shutdown that hangs past `timeoutMs` is given up on (exit status 1): SQLite's
 * journal and the persisted job queue make a hard stop recoverable at the next start.
 * No electron import: the app object is passed in (unit-tested with a stand-in).
 */

export interface QuittableApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  exit(code?: number): void;
}

export interface QuitOptions {
  timeoutMs?: number;
  log?: (message: string) => void;
}

export function holdQuitUntilShutdown(app: QuittableApp, shutdown: () => Promise<void>, options: QuitOptions = {}): void {
  const { timeoutMs = 30_000, log = console.error } = options;
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`it took longer than ${timeoutMs / 1000} s`)), timeoutMs);
    });
    let code = 0;
    void Promise.race([Promise.resolve().then(shutdown), hung])
      .catch((error: unknown) => {
        code = 1;
        log(`Tempora: shutting down failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        clearTimeout(timer);
        state = 'closed';
        app.exit(code);
      });
  });
}

/**
 * A loopback HTTP server that serves one file slowly, with Range support: slow enough for a test to
 * watch a progress bar. With `holdTailBytes` the last bytes of the file are held back until
 * release() — the downloader's first chunks complete meanwhile, so a download cancelled while it
 * waits leaves a partial file to resume from.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRangeResponse } from '../../fixtures/range-response';

export interface SlowServer {
  url: string;
  requests: Array<{ range: string | null }>;
  /** Stop holding the tail back (for requests from now on and those waiting). */
  release(): void;
  close(): Promise<void>;
}

export async function serveSlowly(file: Buffer, options: { chunkBytes: number; everyMs: number; holdTailBytes?: number }): Promise<SlowServer> {
  const requests: SlowServer['requests'] = [];
  let holding = (options.holdTailBytes ?? 0) > 0;
  const holdFrom = file.length - (options.holdTailBytes ?? 0);
  const server = http.createServer((req, res) => {
    requests.push({ range: req.headers.range ?? null });
    const span = startRangeResponse(req, res, file.length);
    if (span.head) return;
    const { end } = span;
    let position = span.start;
    const tick = (): void => {
      if (res.destroyed) return;
      if (position > end) {
        res.end();
        return;
      }
      let size = Math.min(options.chunkBytes, end + 1 - position);
      if (holding) {
        if (position >= holdFrom) {
          setTimeout(tick, options.everyMs);
          return;
        }
        size = Math.min(size, holdFrom - position);
      }
      res.write(file.subarray(position, position + size));
      position += size;
      setTimeout(tick, options.everyMs);
    };
    tick();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    release: () => {
      holding = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback HTTP server that serves one file slowly, with Range support: slow enough for a test to
 * watch a progress bar. With `holdTailBytes` the last bytes of the file are held back until
 * release() — the downloader's first chunks complete meanwhile, so a download cancelled while it
 * waits leaves a partial file to resume from.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
    const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match?.[2] ? Math.min(Number(match[2]), file.length - 1) : file.length - 1;
    requests.push({ range: req.headers.range ?? null });
    res.writeHead(match ? 206 : 200, {
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
      ...(match ? { 'content-range': `bytes ${start}-${end}/${file.length}` } : {}),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    let position = start;
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

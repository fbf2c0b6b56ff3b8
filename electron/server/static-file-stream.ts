/**
 * Sending one file of the renderer without ever leaving its descriptor open: the file is opened
 * once, its size taken from that same descriptor (so Content-Length is what is sent), and it is
 * streamed with stream.pipeline(), which closes it when the response finishes, when reading fails,
 * and when the client goes away mid-body. A HEAD, or a client that left while the file was being
 * opened, closes it at once.
 *
 * (The old code piped a read stream into the response: a client that left mid-body unpiped it,
 * and the paused stream kept its descriptor for good; enough such requests took the bridge down
 * with EMFILE.)
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';

export type StreamOutcome = 'sent' | 'not-found';

/**
 * Answers 200 with the file at `file` (a path already confined to the static root), or resolves
 * 'not-found' without answering when it cannot be opened as a regular file.
 */
export async function streamFile(res: ServerResponse, file: string, type: string, headers: OutgoingHttpHeaders): Promise<StreamOutcome> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return 'not-found';
  }
  let size: number;
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return 'not-found';
    }
    size = info.size;
  } catch {
    await handle.close().catch(() => undefined);
    return 'not-found';
  }
  if (res.destroyed || res.req.method === 'HEAD' || size === 0) {
    await handle.close().catch(() => undefined);
    if (!res.destroyed) {
      res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': size });
      res.end();
    }
    return 'sent';
  }
  res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': size });
  // autoClose: the stream closes the handle when it ends or is destroyed; pipeline destroys it
  // on every way out (finish, read error, response closed early).
  const body = handle.createReadStream({ start: 0, end: size - 1, autoClose: true });
  pipeline(body, res, (error) => {
    if (error && !res.destroyed) res.destroy();
  });
  return 'sent';
}

/**
 * MCP over stdio, for a client that starts Tempora itself (`tempora mcp`): the SDK's serveStdio
 * (it pins one server instance for the connection, in whichever protocol era the client opens).
 * Only MCP frames go to stdout: whatever else would print there (console.log of a library) is sent
 * to stderr instead.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { TemporaEngine } from '../engine/index';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { McpFace, type McpFaceOptions } from './mcp-server';
import { refusingFactory } from './mcp-refused';

export interface StdioMcp {
  /** Resolves when the client closes stdin (or close() is called). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Sends console.log / info / debug to stderr, so stdout carries MCP frames only. */
export function keepStdoutForFrames(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

export function serveMcpOverStdio(engine: TemporaEngine, options: McpFaceOptions & { onError?: (error: Error) => void }): StdioMcp {
  const face = new McpFace(engine, options);
  return serve(face.factory, options.onError, () => face.close());
}

/**
 * For a `tempora mcp` started in a way it cannot serve the memory (a bad time zone): the handshake,
 * then `problem` — what is wrong and how to fix it — as the answer to every call (mcp-refused.ts).
 */
export function serveRefusalOverStdio(problem: string, options: { onError?: (error: Error) => void } = {}): StdioMcp {
  return serve(refusingFactory(problem), options.onError, () => undefined);
}

function serve(factory: McpServerFactory, onError: ((error: Error) => void) | undefined, closeFace: () => void): StdioMcp {
  const handle = serveStdio(factory, { onerror: onError });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      closeFace();
      await handle.close().catch(() => undefined);
      resolveClosed();
    })());
  // stdin at end: the client has gone (the stdio binding says servers should then exit).
  process.stdin.once('end', () => void close());
  process.stdin.once('close', () => void close());
  return { closed, close };
}

/**
 * 2025-era MCP sessions over Streamable HTTP: a client that opens with `initialize` gets an
 * Mcp-Session-Id and one server instance for its session, kept here, so what it subscribed to
 * (resources/subscribe) is told on its standalone GET stream — the only place the 2025 protocol
 * lets a server speak unasked. Requests without a session (a stateless client) are not served here.
 * At most MAX_SESSIONS are kept: opening one more ends the one used longest ago; DELETE ends one.
 */
import { randomUUID } from 'node:crypto';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import type { McpFace } from './mcp-server';

export const MAX_SESSIONS = 64;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

export class LegacySessions {
  /** In order of last use, the least recent first. */
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly face: McpFace,
    private readonly onError?: (error: Error) => void,
    private readonly maxSessions = MAX_SESSIONS,
  ) {}

  /** The answer for a 2025-era request in, or opening, a session; null for one that is neither. */
  async handle(request: Request): Promise<Response | null> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return notFound();
      this.sessions.delete(id);
      this.sessions.set(id, session);
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST' || !(await opensSession(request))) return null;
    return this.open(request);
  }

  get size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    const all = [...this.sessions.keys()];
    await Promise.all(all.map((id) => this.end(id)));
  }

  private async open(request: Request): Promise<Response> {
    const server = this.face.createServer({ era: 'legacy' }, true);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
        while (this.sessions.size > this.maxSessions) void this.end(this.sessions.keys().next().value!);
      },
      onsessionclosed: (id) => void this.end(id),
    });
    transport.onerror = (error) => this.onError?.(error);
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    // An initialize refused (a bad request) opened no session: nothing to keep.
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  private async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.server.close().catch((error: unknown) => this.onError?.(error instanceof Error ? error : new Error(String(error))));
  }
}

/** Whether a POST's body is an initialize request (what opens a session). */
async function opensSession(request: Request): Promise<boolean> {
  try {
    const body: unknown = await request.clone().json();
    return isInitializeRequest(body);
  } catch {
    return false;
  }
}

function notFound(): Response {
  const message = 'Session not found: it ended (or Tempora restarted); send initialize to open a new one';
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });
}

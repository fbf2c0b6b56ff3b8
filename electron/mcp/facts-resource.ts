/**
 * The resource `tempora://facts/me/current`: the facts about the user that are true now, as JSON.
 * It changes when this process writes, and when another Tempora process on the same memory does
 * (the app, `tempora serve`, a second `tempora mcp`), which this process's change events do not
 * see: so the watcher compares what the resource would say — after every local write, and on a
 * timer — and tells the subscribers only when that differs.
 */
import { createHash } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Memory } from '../memory/index';
import { withCurrent } from './tool-results';
import { escapeControlsInJson } from '../../shared/escape-controls';

export const CURRENT_FACTS_URI = 'tempora://facts/me/current';

const RESOURCE_LIMIT = 500;

/** What the resource says now. */
export function currentFactsText(memory: Memory): string {
  const now = memory.clock.now();
  const facts = memory.facts.list({ subject: 'me', limit: RESOURCE_LIMIT }).map((f) => withCurrent(f, now));
  return escapeControlsInJson(JSON.stringify({ subject: 'me', as_of: now, facts }, null, 2));
}

export function registerFactsResource(server: McpServer, memory: Memory): void {
  server.registerResource(
    'current-facts-about-me',
    CURRENT_FACTS_URI,
    {
      title: 'Current facts about the user',
      description: 'What Tempora holds as true now about the user (subject "me"), in the export format plus `current`. Subscribe to be told when it changes.',
      mimeType: 'application/json',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: currentFactsText(memory) }] }),
  );
}

/**
 * Calls `notify` when the current facts about the user change. The fingerprint is the list of
 * current fact versions (ids), so a fact that ends because time passed counts as a change too.
 */
export class CurrentFactsWatcher {
  private last: string;
  private timer: NodeJS.Timeout | null = null;
  private pending: NodeJS.Immediate | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly memory: Memory,
    private readonly notify: (uri: string) => void,
    pollMs = 2_000,
  ) {
    this.last = this.fingerprint();
    this.unsubscribe = memory.onChange((change) => {
      if (change.kind === 'facts' || change.kind === 'forgotten' || change.kind === 'imported') this.schedule();
    });
    if (pollMs > 0) {
      this.timer = setInterval(() => this.check(), pollMs);
      this.timer.unref();
    }
  }

  /** Checks soon (once for a burst of writes). */
  schedule(): void {
    this.pending ??= setImmediate(() => {
      this.pending = null;
      this.check();
    });
  }

  check(): void {
    let next: string;
    try {
      next = this.fingerprint();
    } catch {
      return; // closed, or busy with another process's write: the next tick looks again
    }
    if (next === this.last) return;
    this.last = next;
    this.notify(CURRENT_FACTS_URI);
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearImmediate(this.pending);
    this.timer = null;
    this.pending = null;
  }

  private fingerprint(): string {
    const ids = this.memory.facts.list({ subject: 'me', limit: RESOURCE_LIMIT }).map((f) => f.id);
    return createHash('sha256').update(ids.join(',')).digest('hex');
  }
}

/**
 * Tempora as an MCP server: one factory (the SDK's McpServerFactory) that builds a server with the
 * memory tools, the current-facts resource and the guide to the time axes (resource and prompt), for both transports and both protocol eras (the
 * 2025 initialize handshake and the 2026-07-28 per-request envelope). It also keeps the live
 * instances, so a change of the current facts reaches every client that subscribed to them.
 */
import { McpServer, ResourceNotFoundError, type McpRequestContext, type McpServerFactory } from '@modelcontextprotocol/server';
import type { TemporaEngine } from '../engine/index';
import { CURRENT_FACTS_URI, CurrentFactsWatcher, registerFactsResource } from './facts-resource';
import { registerMemoryTools, type ToolOptions } from './memory-tools';
import { registerTimeAxesGuide, TIME_AXES_URI } from './time-axes-guide';

export const SERVER_INFO = { name: 'tempora', title: 'Tempora memory', version: '0.1.0' };

const INSTRUCTIONS =
  "Tempora is the user's local, bitemporal memory: every fact has when it was true (valid time) and when Tempora learned it " +
  '(system time). Search it (search_memory) before answering questions about the user; store what they tell you ' +
  '(remember_facts, or remember_message to let Tempora extract); correct_fact / close_fact / forget_fact when they correct you. ' +
  `How to ask about the past (as_of) and about what Tempora was told when (known_at): the resource ${TIME_AXES_URI} or the prompt time-axes. ` +
  "A time you pass without an offset is read in the user's time zone, which every result that says a time names on its last line (Times in Asia/Tokyo.).";

/** The resources this server offers (a subscription to any other is refused). */
const RESOURCE_URIS: readonly string[] = [CURRENT_FACTS_URI, TIME_AXES_URI];

export interface McpFaceOptions extends ToolOptions {
  /** How often to look for changes made by other processes (ms; 0: only this process's writes). */
  pollMs?: number;
}

interface Instance {
  server: McpServer;
  era: McpRequestContext['era'];
  /** Legacy (2025) clients subscribe per URI; modern ones through subscriptions/listen, which the SDK's entry routes. */
  subscribed: Set<string>;
}

export class McpFace {
  private readonly instances = new Set<Instance>();
  private readonly listeners = new Set<(uri: string) => void>();
  private readonly watcher: CurrentFactsWatcher;

  constructor(
    readonly engine: TemporaEngine,
    private readonly options: McpFaceOptions,
  ) {
    this.watcher = new CurrentFactsWatcher(engine.memory, (uri) => this.resourceUpdated(uri), options.pollMs ?? 2_000);
  }

  /** The factory serveStdio calls for its connection: the instance is told of resource changes. */
  readonly factory: McpServerFactory = (ctx) => this.createServer(ctx, true);
  /**
   * The factory createMcpHandler calls for each HTTP request: one-request instances are not kept;
   * changes reach modern HTTP clients through the handler's subscriptions/listen bus instead.
   */
  readonly httpFactory: McpServerFactory = (ctx) => this.createServer(ctx, false);

  /** Also tell `listener` (an HTTP handler's notify) when a resource changes; returns the unsubscribe. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  createServer(ctx: Pick<McpRequestContext, 'era'> = { era: 'legacy' }, track = true): McpServer {
    // Subscription is offered only where a change is delivered: a kept instance (stdio, a 2025-era
    // HTTP session) tells it itself, a 2026-07-28 one on subscriptions/listen; a one-request 2025-era
    // instance is gone before anything changes.
    const subscribe = track || ctx.era === 'modern';
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: {}, resources: { subscribe }, prompts: {} },
      instructions: INSTRUCTIONS,
    });
    registerMemoryTools(server, this.engine, this.options);
    registerFactsResource(server, this.engine.memory);
    registerTimeAxesGuide(server);
    const instance: Instance = { server, era: ctx.era, subscribed: new Set() };
    if (ctx.era === 'legacy' && subscribe) {
      server.server.setRequestHandler('resources/subscribe', (request) => {
        const { uri } = request.params;
        // A URI this server has no resource at would never be told of: refused, naming the ones it has.
        if (!RESOURCE_URIS.includes(uri)) throw new ResourceNotFoundError(uri, `No resource ${JSON.stringify(uri)} here: Tempora's resources are ${RESOURCE_URIS.join(' and ')}.`);
        instance.subscribed.add(uri);
        return {};
      });
      server.server.setRequestHandler('resources/unsubscribe', (request) => {
        instance.subscribed.delete(request.params.uri);
        return {};
      });
    }
    if (!track) return server;
    this.instances.add(instance);
    const previous = server.server.onclose;
    server.server.onclose = () => {
      this.instances.delete(instance);
      previous?.();
    };
    return server;
  }

  /** Look for a change now (tests; after a write this process did not make through the memory). */
  checkForChanges(): void {
    this.watcher.check();
  }

  private resourceUpdated(uri: string): void {
    for (const instance of this.instances) {
      if (!instance.server.isConnected()) continue;
      if (instance.era === 'legacy' && !instance.subscribed.has(uri)) continue;
      instance.server.server.sendResourceUpdated({ uri }).catch(() => this.instances.delete(instance));
    }
    for (const listener of this.listeners) listener(uri);
  }

  close(): void {
    this.watcher.stop();
    this.instances.clear();
    this.listeners.clear();
  }
}

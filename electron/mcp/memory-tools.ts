/**
 * The MCP tools over the engine: remember (facts an agent extracted, or a message for Tempora's own
 * model to learn), search and list on the two time axes, a fact's history, and the corrections
 * (correct, close, forget). Each goes through the same code as the UI and the CLI: Memory.observe,
 * Memory.appendMessage, searchMemory, and the API handlers.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { MemoryInputError } from '../memory/index';
import { createApiHandlers, searchMemory, type TemporaEngine } from '../engine/index';
import { asksNow, notNow, notNowWords } from '../../shared/search-not-now';
import type { FactRecord } from '../../shared/memory-schema';
import { closeWord, formatEnding, type TimeFormat } from '../../shared/time-format';
import { endHeldBack } from '../../shared/end-held-back';
import { escapeControls } from '../../shared/escape-controls';
import { plural as countWords } from '../../shared/count-words';
import { factLine, historyText, listText, searchText, zoneLine } from './fact-words';
import { readMoment, readTime } from './mcp-times';
import { withOffsetIn, zonelessIn } from '../../shared/time-zone';
import { guarded, ok, withCurrent } from './tool-results';
import { TOOLS } from './tool-declarations';
import { inWords } from './tool-input';
import type { IsoTime } from '../../shared/time';

export interface ToolOptions {
  /** Whether this process runs the ingestion worker (remember_message is learned here, not only queued). */
  learnsHere: boolean;
}

/** The conversations what MCP clients tell is filed under, unless they name one. */
export const MCP_FACTS_CONVERSATION = { id: 'cnv_mcp_facts', title: 'Facts from other agents (MCP)' };
export const MCP_MESSAGES_CONVERSATION = { id: 'cnv_mcp_messages', title: 'Messages from other agents (MCP)' };

/** Counts as agents read them, en-US as every number MCP says: "1 fact", "2 fact versions". */
const plural = (n: number, one: string) => countWords(n, one, `${one}s`, 'en-US');

export function registerMemoryTools(server: McpServer, engine: TemporaEngine, options: ToolOptions): void {
  const memory = engine.memory;
  const handlers = createApiHandlers(engine);
  const now = () => memory.clock.now();
  /** The user's zone (the engine's), read at each call: the setting may change while MCP serves. */
  const zone = () => engine.timeZone();
  /** How the tools' text writes a time: the one formatter, in the user's zone. */
  const words = () => ({ timeZone: zone(), locale: 'en-GB' });
  const facts = (records: Parameters<typeof withCurrent>[0][], at = now()) => records.map((f) => withCurrent(f, at));
  /** For facts over by `at`, the facts that closed them (what holds in their place). */
  const successors = (list: FactRecord[], at: IsoTime) => {
    const ids = [...new Set(list.flatMap((f) => (f.invalid_at !== null && f.invalid_at <= at && f.invalidated_by ? [f.invalidated_by] : [])))];
    return ids.length ? memory.facts.byIds(ids, at) : [];
  };

  server.registerTool(
    'remember_facts',
    TOOLS.remember_facts,
    inWords('remember_facts', (args) =>
      guarded(() => {
        const reference = readTime(args.reference_time, 'reference_time', now(), zone())?.at ?? now();
        const referenceTime = withOffsetIn(reference, zone());
        // Given as the wall time in the user's zone, with the zone: the memory then reads phrases in
        // the zone itself (its DST, not one offset) and names it in its refusals ("in Asia/Tokyo", as
        // every other time error here says), not "in UTC+09:00". In a DST fold's repeated hour the
        // wall time names another instant too: there the time keeps its offset.
        const wall = referenceTime.replace(/(?:Z|[+-]\d{2}:\d{2})$/, '');
        const inZone = zonelessIn(wall, zone()) === referenceTime;
        const lines = args.facts.map((f) => ({ ...f, reference_time: inZone ? wall : referenceTime }));
        let summary;
        try {
          // The agent's name (its MCP clientInfo) goes with facts held for review: "from agent NAME".
          summary = memory.facts.observe(lines, {
            where: 'facts',
            conversation: MCP_FACTS_CONVERSATION,
            agent: server.server.getClientVersion()?.name ?? 'an unnamed agent',
            ...(inZone ? { zone: zone() } : {}),
          });
        } catch (error) {
          throw namedItem(error);
        }
        const written = summary.changes;
        const at = now();
        const byIds = (list: string[] | undefined) => facts(list?.length ? memory.facts.byIds(list, at) : [], at);
        // In the order the facts were given (the write reports them by slot and time): an agent
        // taking ids by position must find its own facts there. A fact merged into another goes last.
        const given = new Map<string, number>();
        args.facts.forEach((f, i) => given.has(f.fact.trim()) || given.set(f.fact.trim(), i));
        const inGivenOrder = <T extends { fact: string }>(list: T[]) => list.map((f, i) => ({ f, i, at: given.get(f.fact) ?? Infinity })).sort((a, b) => a.at - b.at || a.i - b.i).map((x) => x.f);
        const result = {
          observations: summary.observations,
          added: inGivenOrder(byIds(written.created)),
          closed: byIds(written.closed),
          confirmed: byIds(written.confirmed),
          episode_ids: summary.episodeIds,
          held_for_review: summary.heldForReview,
        };
        if (summary.heldForReview.length > 0) {
          return ok(result, `Held ${plural(summary.observations, 'fact')} for the user's review (review before remembering is on): nothing is remembered until they approve.`);
        }
        // A retry (the same facts said at the same time) is the write done already: say so, as remember_message does.
        if (summary.factsAdded + summary.factsClosed + summary.factsConfirmed === 0) return ok(result, `Already remembered (the same ${plural(summary.observations, 'fact')}, said at the same time); nothing changed.`);
        return ok(result, `Remembered ${plural(summary.observations, 'fact')}: ${summary.factsAdded} added, ${summary.factsClosed} closed, ${summary.factsConfirmed} confirmed.`);
      })),
  );

  server.registerTool(
    'remember_message',
    TOOLS.remember_message,
    inWords('remember_message', (args) =>
      guarded(() => {
        const time = readTime(args.reference_time, 'reference_time', now(), zone())?.at ?? now();
        const role = args.role ?? 'user';
        const appended = memory.messages.append({
          role,
          content: args.content,
          time,
          timeZone: zone(),
          conversation: args.conversation ?? MCP_MESSAGES_CONVERSATION.id,
          ...(args.conversation ? {} : { conversationTitle: MCP_MESSAGES_CONVERSATION.title }),
        });
        const modelLoaded = engine.models.host.chatModel !== null;
        const learned = appended.job !== undefined;
        const learning = !learned ? 'not_learned' : options.learnsHere && modelLoaded ? 'now' : 'queued';
        if (learning === 'now') engine.worker.notify();
        const state =
          learning === 'now'
            ? "Tempora's model is learning it now; its facts appear in search_memory when done."
            : learning === 'queued'
              ? 'Stored and queued: Tempora learns it when the app, `tempora serve` or `tempora ingest` runs with a chat model on this memory.'
              : `Stored; ${role} messages are not learned from on their own.`;
        // A retry (the same text at the same reference_time) stored nothing: saying "Stored" again
        // would tell the agent there are now two.
        const note = appended.duplicate
          ? `Already stored (the same message, said at the same time); nothing changed. ${learning === 'not_learned' ? `${role} messages are not learned from on their own.` : `It is ${learning === 'now' ? 'being learned now' : 'queued'}: ${state.replace(/^[^:;]*[:;] /, '')}`}`
          : state;
        const result = { episode_id: appended.episode.id, duplicate: appended.duplicate, learning, model_loaded: modelLoaded, note } as const;
        return ok(result, note);
      })),
  );

  server.registerTool(
    'search_memory',
    TOOLS.search_memory,
    inWords('search_memory', (args) =>
      guarded(async () => {
        const at = now();
        const asOf = readMoment(args.as_of, 'as_of', at, zone());
        const knownAt = readMoment(args.known_at, 'known_at', at, zone());
        const query = { query: args.query, asOf: asOf?.at, knownAt: knownAt?.at, history: args.include_history, limit: args.limit ?? 10 };
        const response = await searchMemory(memory, engine.vectors.ranker(), query, zone());
        const result = {
          hits: response.hits.map((h) => ({ fact: withCurrent(h.fact, at), score: h.score })),
          history: response.history,
          vectors_used: response.vectorsUsed,
          time: response.time,
          note: response.note,
        };
        const said = { hits: response.hits.map((h) => h.fact), time: response.time, asOf, knownAt, successors: (list: FactRecord[]) => successors(list, at) };
        const text = searchText(said, { format: words(), now: at }, zone());
        // Nothing true now: say what another time holds, as `tempora search` does.
        const elsewhere = asksNow(response, query) ? notNowWords(args.query, notNow(await searchMemory(memory, engine.vectors.ranker(), { ...query, history: true }, zone()), Date.parse(at)), 'call again with include_history true') : null;
        return ok(result, elsewhere ? `${text}\n${elsewhere}` : text);
      })),
  );

  server.registerTool(
    'list_facts',
    TOOLS.list_facts,
    inWords('list_facts', (args) =>
      guarded(() => {
        const at = now();
        const asOf = readMoment(args.as_of, 'as_of', at, zone());
        const knownAt = readMoment(args.known_at, 'known_at', at, zone());
        const list = memory.facts.list({
          subject: args.subject,
          predicate: args.predicate,
          entity: args.entity,
          asOf: asOf?.at,
          knownAt: knownAt?.at,
          history: args.include_history,
          limit: args.limit ?? 100,
        });
        const result = { facts: facts(list, at), count: list.length };
        return ok(result, listText(list, { format: words(), now: at }, { asOf, knownAt }));
      })),
  );

  server.registerTool(
    'fact_history',
    TOOLS.fact_history,
    inWords('fact_history', (args) =>
      guarded(async () => {
        const at = now();
        const details = await handlers.factDetails({ id: args.id });
        const result = {
          fact: withCurrent(details.fact, at),
          versions: facts(details.versions, at),
          source_messages: details.episodes,
          closed_by: details.closedBy && withCurrent(details.closedBy, at),
          closed: facts(details.closed, at),
        };
        return ok(result, historyText(details.fact, details.versions, details.episodes.length, { format: words(), now: at }));
      })),
  );

  server.registerTool(
    'correct_fact',
    TOOLS.correct_fact,
    inWords('correct_fact', (args) =>
      guarded(async () => {
        const fact = await handlers.editFact(args);
        const at = now();
        const held = args.invalid_at === undefined ? '' : heldBack(fact, args.invalid_at !== null, words());
        return ok({ fact: withCurrent(fact, at) }, `Corrected; the new version:\n${factLine(fact, { format: words(), now: at })}${held}\n${zoneLine(words())}`);
      })),
  );

  server.registerTool(
    'close_fact',
    TOOLS.close_fact,
    inWords('close_fact', (args) =>
      guarded(async () => {
        let fact: FactRecord;
        try {
          fact = await handlers.closeFact(args);
        } catch (error) {
          throw alreadyEnds(error, memory.facts.currentVersionOf(args.id), words(), now());
        }
        const at = now();
        // The end as people read it, by the one formatter: "ended 1 Sept 2026", or "until …" for one to come.
        return ok({ fact: withCurrent(fact, at) }, `${closeWord(fact, at)}: ${escapeControls(fact.fact)} (${formatEnding(fact, words(), at) || 'open'}).${heldBack(fact, true, words())}\n${zoneLine(words())}`);
      })),
  );

  server.registerTool(
    'forget_fact',
    TOOLS.forget_fact,
    inWords('forget_fact', (args) =>
      guarded(async () => {
        const forgotten = await handlers.forgetFact({ id: args.id, withSources: args.with_sources });
        const { deleted, kept } = forgotten.sources;
        const result = {
          fact_ids: forgotten.factIds,
          entity_ids: forgotten.entityIds,
          episode_ids: forgotten.episodeIds,
          deleted_messages: deleted.map((m) => ({ id: m.id, excerpt: m.excerpt })),
          kept_messages: kept.map((m) => ({ id: m.id, excerpt: m.excerpt, reason: m.reason })),
        };
        return ok(result, `Forgot ${plural(forgotten.factIds.length, 'fact version')}; ${plural(deleted.length, 'source message')} deleted, ${kept.length} kept.`);
      })),
  );
}

/** observe names an item "facts:2" (1-based, as a file's line); the argument is facts[1]. */
function namedItem(error: unknown): unknown {
  if (!(error instanceof MemoryInputError)) return error;
  const item = /^facts:(\d+)(?::\s*)?/.exec(error.message);
  if (!item) return error;
  const at = `facts[${Number(item[1]) - 1}]`;
  // Another fact the message names ("… but facts:2 is about the same slot …") by its place too.
  const rest = error.message.slice(item[0].length).replace(/\bfacts:(\d+)(?!\d)/g, (_, n: string) => `facts[${Number(n) - 1}]`);
  const field = /^(\w+):/.exec(rest)?.[1];
  return new MemoryInputError(`${at}${field ? '.' : ': '}${rest}`, field ? `${at}.${field}` : at, error.code);
}

/**
 * close_fact at the end the fact already has: the memory says "the edit changes nothing", naming
 * invalid_at; the argument is `at`, and the agent is told the end it has.
 */
function alreadyEnds(error: unknown, fact: FactRecord | undefined, format: TimeFormat, at: IsoTime): unknown {
  if (!(error instanceof MemoryInputError) || !/^(invalid_at: )?the edit changes nothing$/.test(error.message) || !fact || fact.invalid_at === null) return error;
  return new MemoryInputError(`at: the fact already ends then (${formatEnding(fact, format, at)}); nothing changed`, 'at', error.code);
}

/** Said after the answer, so the agent does not tell the user the end moved (shared/end-held-back). */
function heldBack(fact: FactRecord, endGiven: boolean, format: TimeFormat): string {
  const note = endHeldBack(fact, endGiven, format, { to: 'agent' });
  return note === null ? '' : `\n${note}`;
}

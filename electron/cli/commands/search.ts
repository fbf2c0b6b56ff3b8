/**
 * `tempora search QUERY`: the chat's own retrieval (engine/memory-search.ts) — full text, entity
 * names, source messages, and vectors with --embedding-model — so it shows what the chat would be given.
 */
import { searchMemory, searchMemoryText, type SearchQuery } from '../../engine/memory-search';
import { asksNow, notNow, notNowWords, type NotNow } from '../../../shared/search-not-now';
import type { SearchHit } from '../../memory/index';
import type { CommandContext, CommandSpec } from '../command';
import { withEngine } from '../engine-context';
import { UsageError } from '../errors';
import { checkForRead } from '../memory-dir';
import { displayFormat, factTable, formatAsked, plural, printJson, printLines } from '../output';
import type { Precision } from '../../../shared/memory-schema';

type Moment = { at: string; precision: Precision };

export const searchCommand: CommandSpec = {
  name: 'search',
  summary: 'search facts by text (any language, substrings included), on the two time axes',
  synopsis: 'search QUERY [--as-of T] [--known-at T] [--history] [--limit N]',
  description: [
    'Words of QUERY may be given as separate arguments. Without options: current facts only.',
    'Each hit shows its fused score and the rank each retriever (text, entity, episode) gave it.',
    '--json prints [{ fact, score, parts }], fact being a record in the export format.',
  ],
  options: {
    'as-of': { type: 'string', help: ['--as-of T', 'facts that were true at T'] },
    'known-at': { type: 'string', help: ['--known-at T', 'as the memory held them at T'] },
    history: { type: 'boolean', help: ['--history', 'search every version (default: when the question asks about the past)'] },
    limit: { type: 'string', help: ['--limit N', 'at most N hits (default 10)'] },
    'embedding-model': { type: 'string', help: ['--embedding-model PATH', 'add vector search with this embedding model (GGUF), as the chat does'] },
  },
  positionals: { min: 1, max: Infinity, name: 'QUERY' },
  run(ctx) {
    const query = ctx.positionals.join(' ');
    // Nothing to search for is a mistake, not "No facts match": MCP's search_memory refuses it too.
    if (query.trim() === '') throw new UsageError('search: QUERY is empty or only spaces (give words to search for)', 'search');
    const asked = { asOf: ctx.moment('as-of'), knownAt: ctx.moment('known-at') };
    const options = { query, asOf: asked.asOf?.at, knownAt: asked.knownAt?.at, history: ctx.flag('history') || undefined, limit: ctx.count('limit') };
    // Without an embedding model the engine (node-llama-cpp, LanceDB) is not even loaded.
    if (ctx.string('embedding-model') !== undefined) {
      checkForRead(ctx.memoryDir); // a search creates no store, even through the engine
      return withEngine(ctx, {}, async (engine) => {
        const search = (request: SearchQuery) => searchMemory(engine.memory, engine.vectors.ranker(), request, engine.timeZone());
        const found = await search(options);
        print(ctx, query, asked, found.hits, asksNow(found, options) ? notNow(await search({ ...options, history: true }), Date.parse(engine.memory.clock.now())) : null);
      });
    }
    const [hits, elsewhere] = ctx.readMemory((memory) => {
      const found = searchMemoryText(memory, options, ctx.timeZone);
      return [found.hits, asksNow(found, options) ? notNow(searchMemoryText(memory, { ...options, history: true }, ctx.timeZone), Date.parse(memory.clock.now())) : null] as const;
    });
    print(ctx, query, asked, hits, elsewhere);
  },
};

/** `elsewhere`: facts that match at another time, when none true now does (text only: --json stays the hits). */
function print(ctx: CommandContext, query: string, asked: { asOf?: Moment; knownAt?: Moment }, hits: SearchHit[], elsewhere: NotNow | null): void {
  if (ctx.json) return printJson(ctx.io, hits);
  if (hits.length === 0) return printLines(ctx.io, [(elsewhere && notNowWords(query, elsewhere, 'add --history')) ?? `No facts match ${JSON.stringify(query)}.`]);
  const byId = new Map(hits.map((hit, index) => [hit.fact.id, { hit, rank: index + 1 }]));
  const table = factTable(
    hits.map((h) => h.fact),
    [
      { header: '#', cell: (f) => String(byId.get(f.id)?.rank ?? '') },
      { header: 'SCORE', cell: (f) => describeScore(byId.get(f.id)?.hit) },
    ],
  );
  const axes = [asked.asOf ? `as of ${formatAsked(asked.asOf)}` : '', asked.knownAt ? `known at ${formatAsked(asked.knownAt)}` : '']
    .filter(Boolean)
    .join(', ');
  printLines(ctx.io, [...table, '', `${plural(hits.length, 'hit')} for ${JSON.stringify(query)} (${axes ? `${axes}; ` : ''}times in ${displayFormat().timeZone}).`]);
}

/** "0.0328 text#1 episode#1". */
function describeScore(hit: SearchHit | undefined): string {
  if (!hit) return '';
  const parts = Object.entries(hit.parts).map(([part, rank]) => `${part}#${rank}`);
  return [hit.score.toFixed(4), ...parts].join(' ');
}

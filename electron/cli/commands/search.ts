/** `tempora search QUERY`: hybrid full-text search over facts, entity names and source messages. */
import type { SearchHit } from '../../memory/index';
import type { CommandSpec } from '../command';
import { factTable, formatTime, plural, printJson, printLines } from '../output';

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
    history: { type: 'boolean', help: ['--history', 'search every version'] },
    limit: { type: 'string', help: ['--limit N', 'at most N hits (default 10)'] },
  },
  positionals: { min: 1, max: Infinity, name: 'QUERY' },
  run(ctx) {
    const query = ctx.positionals.join(' ');
    const options = { asOf: ctx.time('as-of'), knownAt: ctx.time('known-at'), history: ctx.flag('history'), limit: ctx.count('limit') };
    const hits = ctx.withMemory((memory) => memory.search(query, options));
    if (ctx.json) return printJson(ctx.io, hits);
    if (hits.length === 0) return printLines(ctx.io, [`No facts match ${JSON.stringify(query)}.`]);
    const byId = new Map(hits.map((hit, index) => [hit.fact.id, { hit, rank: index + 1 }]));
    const table = factTable(
      hits.map((h) => h.fact),
      [
        { header: '#', cell: (f) => String(byId.get(f.id)?.rank ?? '') },
        { header: 'SCORE', cell: (f) => describeScore(byId.get(f.id)?.hit) },
      ],
    );
    const axes = [options.asOf ? `as of ${formatTime(options.asOf)}` : '', options.knownAt ? `known at ${formatTime(options.knownAt)}` : '']
      .filter(Boolean)
      .join(', ');
    printLines(ctx.io, [...table, '', `${plural(hits.length, 'hit')} for ${JSON.stringify(query)}${axes ? ` (${axes})` : ''}.`]);
  },
};

/** "0.0328 text#1 episode#1". */
function describeScore(hit: SearchHit | undefined): string {
  if (!hit) return '';
  const parts = Object.entries(hit.parts).map(([part, rank]) => `${part}#${rank}`);
  return [hit.score.toFixed(4), ...parts].join(' ');
}

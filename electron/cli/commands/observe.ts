/** `tempora observe FILE.jsonl`: one structured observation per line, the whole file in one transaction. */
import { MemoryInputError } from '../../memory/index';
import type { CommandSpec } from '../command';
import { InputError } from '../errors';
import { readTextFile } from '../files';
import { jsonFault } from '../../../shared/json-position';
import { plural, printJson, printLines } from '../output';
import { jsonKind } from '../../../shared/zod-words';

/**
 * The file's non-empty lines, parsed, with their 1-based line numbers. Each must be one JSON object
 * (`item` says what one is: "an observation"); a line that is another JSON value is refused so.
 */
export function parseJsonLines(file: string, text: string, item = 'an observation'): { items: unknown[]; lines: number[] } {
  const items: unknown[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch (error) {
      throw new InputError(notOneObjectALine(file, text) ?? `${file}:${index + 1}: not JSON (${columnAndWords(raw, line, error)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InputError(notOneObjectALine(file, text) ?? `${file}:${index + 1}: ${item} is one JSON object per line; this line is ${jsonKind(value)}`);
    }
    if (items.length === 0 && (('format' in value && value.format === 'tempora.memory') || 'mapping' in value || 'chat_messages' in value)) {
      const other = notOneObjectALine(file, text);
      if (other !== null) throw new InputError(other);
    }
    items.push(value);
    lines.push(index + 1);
  });
  return { items, lines };
}

/** "column 19: a field's name must be in double quotes, …": where in the line (as the file has it, indent and all) and why. */
function columnAndWords(raw: string, line: string, error: unknown): string {
  const { column, reason } = jsonFault(line, error, 'the line');
  return `column ${column + (raw.length - raw.trimStart().length)}: ${reason}`;
}

/**
 * What to say when the file is not JSON Lines at all but what another command reads: a memory
 * export (one JSON document: `tempora import`) or a ChatGPT or Claude chat history (`tempora
 * import-chats`), told by the keys near its start. Null otherwise. A key a line of observations
 * cannot have ("format", "mapping", "chat_messages") is what tells it, so a good file never is.
 */
function notOneObjectALine(file: string, text: string): string | null {
  const head = text.slice(0, 4096);
  if (!/^\s*[[{]/.test(head)) return null;
  if (/"format"\s*:\s*"tempora\.memory"/.test(head)) {
    return `${file} looks like a Tempora memory export (one JSON document), not one JSON object per line: import it with \`tempora import ${file}\``;
  }
  const chat = /"(mapping|chat_messages)"\s*:/.exec(head);
  if (chat === null) return null;
  return `${file} looks like a ${chat[1] === 'mapping' ? 'ChatGPT' : 'Claude'} chat history, not one JSON object per line: import it with \`tempora import-chats ${file}\``;
}

/**
 * The engine numbers items 1, 2, 3 ... in the order given; blank lines were skipped, so item n may sit
 * on a later line. Rewrites "FILE:n: ..." to name the real line, and every other item the message
 * names the same way ("… but FILE:2 is about the same slot …").
 */
export function atFileLine(error: MemoryInputError, file: string, lines: number[]): MemoryInputError {
  const prefix = `${file}:`;
  if (!error.where.startsWith(prefix) || !error.message.startsWith(error.where)) return error;
  const lineOf = (item: string) => lines[Number(item) - 1];
  const line = lineOf(error.where.slice(prefix.length));
  if (line === undefined) return error;
  const where = `${file}:${line}`;
  const item = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)(?!\\d)`, 'g');
  const rest = error.message.slice(error.where.length).replace(item, (named: string, n: string) => (lineOf(n) === undefined ? named : `${file}:${lineOf(n)}`));
  return new MemoryInputError(`${where}${rest}`, where);
}

export const observeCommand: CommandSpec = {
  name: 'observe',
  summary: 'add structured observations from a JSON Lines file',
  synopsis: 'observe FILE.jsonl',
  description: [
    'One observation per line:',
    '  {"subject":"me","predicate":"manager","object":"A","fact":"My manager is A.",',
    '   "reference_time":"2026-09-01T10:00:00+09:00","valid_at":null,"invalid_at":null,"cardinality":"one"}',
    'A time without an offset is read in your time zone (--tz, else $TEMPORA_TZ, else the system\'s).',
    'valid_at, invalid_at and cardinality are optional (valid_at defaults to reference_time,',
    'cardinality to "many"); object_type ("entity" or "literal") and conversation are optional too.',
    'Lines with the same subject and predicate must give the same cardinality.',
    'The whole file is one transaction: any bad line leaves the memory unchanged.',
    'Observations are your own input: they are remembered at once, also while review before',
    'remembering is on (it holds what a model learned and what other agents give).',
  ],
  options: {},
  positionals: { min: 1, max: 1, name: 'FILE.jsonl' },
  run(ctx) {
    const file = ctx.positionals[0]!;
    const { items, lines } = parseJsonLines(file, readTextFile(file, ctx.io.cwd));
    // Empty, or only blank lines: bad input, refused before a memory is opened (or made).
    if (items.length === 0) throw new InputError(`${file} holds no observations: nothing was stored`);
    const { summary, reviewing } = ctx.withMemory((memory) => {
      try {
        return { summary: memory.facts.observe(items, { where: file, zone: ctx.timeZone }), reviewing: memory.review.status().reviewBeforeRemembering };
      } catch (error) {
        throw error instanceof MemoryInputError ? atFileLine(error, file, lines) : error;
      }
    });
    if (ctx.json) return printJson(ctx.io, { ...summary, bypassedReview: reviewing });
    printLines(ctx.io, [
      `Observed ${plural(summary.observations, 'observation')} from ${file}: ` +
        `${plural(summary.factsAdded, 'fact')} added, ${summary.factsClosed} closed, ${summary.factsConfirmed} confirmed.`,
      ...(reviewing ? ['Review before remembering is on; these are your own observations, so they were remembered without review.'] : []),
    ]);
  },
};

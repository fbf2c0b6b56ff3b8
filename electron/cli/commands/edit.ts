/**
 * `tempora edit` and `tempora close`: user corrections. Neither changes a version in place: the
 * current version is expired and a new one (origin user_edit) supersedes it; both print the new one.
 */
import { MemoryInputError, type FactEdit, type Memory } from '../../memory/index';
import type { FactRecord, Precision } from '../../../shared/memory-schema';
import type { IsoTime } from '../../../shared/time';
import { endNotAfterStart, startNotBeforeEnd } from '../../engine/api-errors';
import type { CommandContext, CommandSpec } from '../command';
import { InputError, UsageError } from '../errors';
import { displayFormat, displayNow, escapeControls, factDetails, printJson, printLines } from '../output';
import { closeWord, formatEnding } from '../../../shared/time-format';
import { endHeldBack } from '../../../shared/end-held-back';

type Resolved = { at: string; precision: Precision };

/** Whether a sentence names the object (case and width folded: "Ａ" and "a" are "A"). */
function mentions(sentence: string, object: string): boolean {
  const fold = (text: string) => text.normalize('NFKC').toLowerCase();
  return fold(sentence).includes(fold(object).trim());
}

export const editCommand: CommandSpec = {
  name: 'edit',
  summary: "correct a fact's sentence, object or validity interval",
  synopsis: 'edit FACT_ID [--fact TEXT] [--object X] [--valid-at T] [--invalid-at T|none]',
  description: [
    'FACT_ID may be the id of any version of the fact; the current version is edited.',
    'At least one option is needed. --invalid-at none reopens a closed fact.',
    'Prints the new version (--json: its record).',
  ],
  options: {
    fact: { type: 'string', help: ['--fact TEXT', 'new sentence'] },
    object: { type: 'string', help: ['--object X', 'new object (an entity name, or the literal value)'] },
    'valid-at': { type: 'string', help: ['--valid-at T', 'when it became true'] },
    'invalid-at': { type: 'string', help: ['--invalid-at T|none', 'when it stopped being true; none: still true'] },
  },
  positionals: { min: 1, max: 1, name: 'FACT_ID' },
  run(ctx) {
    const id = ctx.positionals[0]!;
    const edit: FactEdit = {};
    const fact = ctx.string('fact');
    const object = ctx.string('object');
    // Named by the option typed (the memory would say "fact must not be empty").
    for (const [option, value] of [['fact', fact], ['object', object]] as const) if (value !== undefined && value.trim() === '') throw new InputError(`--${option}: must not be empty or only spaces; nothing changed`);
    if (fact !== undefined) edit.fact = fact;
    if (object !== undefined) edit.object = object;
    const validAt = ctx.timeWithPrecision('valid-at');
    if (validAt !== undefined) Object.assign(edit, { valid_at: validAt.at, valid_at_precision: validAt.precision });
    const invalidAt = ctx.string('invalid-at');
    if (invalidAt !== undefined && invalidAt.trim().toLowerCase() === 'none') edit.invalid_at = null;
    else if (invalidAt !== undefined) {
      const end = ctx.parseTime('invalid-at', invalidAt);
      Object.assign(edit, { invalid_at: end.at, invalid_at_precision: end.precision });
    }
    if (Object.keys(edit).length === 0) throw new UsageError('edit needs at least one of --fact, --object, --valid-at, --invalid-at', 'edit');
    const start = validAt ? { at: validAt.at, precision: validAt.precision } : undefined;
    const updated = ctx.withMemory((memory) => {
      // "--invalid-at November" typed in June for a fact since May: this November, held through it
      // as a month not over yet (readEndInput).
      const from = validAt?.at ?? memory.facts.currentVersionOf(id)?.valid_at;
      if (invalidAt !== undefined && edit.invalid_at && from !== undefined) {
        const ahead = ctx.endTime('invalid-at', invalidAt, from);
        Object.assign(edit, { invalid_at: ahead.at, invalid_at_precision: ahead.precision });
      }
      const end = edit.invalid_at ? { at: edit.invalid_at, precision: edit.invalid_at_precision ?? 'instant' } : undefined;
      refuseEndNotAfterStart(ctx, memory, id, start, end, '--invalid-at');
      // A start moved to or past the end the fact has, with no end given: said in the user's zone, naming --valid-at.
      const startPastEnd = invalidAt === undefined ? startNotBeforeEnd(memory.facts.currentVersionOf(id), start, { start: '--valid-at', end: '--invalid-at', reopen: '--invalid-at none' }, ctx.timeZone) : null;
      if (startPastEnd !== null) throw new InputError(startPastEnd);
      const result = editOrSayWhy(memory, id, edit);
      if (edit.invalid_at === null) noteReopenHeldBack(ctx, memory, result);
      else noteEndHeldBack(ctx, memory, result, end);
      return result;
    });
    if (object !== undefined && fact === undefined && !mentions(updated.fact, updated.object)) {
      ctx.io.stderr(
        `tempora: note: the sentence still reads ${JSON.stringify(escapeControls(updated.fact))}, which does not say ${JSON.stringify(escapeControls(updated.object))}; ` +
          `change it too with: tempora edit ${updated.id} --fact TEXT\n`,
      );
    }
    if (ctx.json) return printJson(ctx.io, updated);
    printLines(ctx.io, [`Edited ${id}; the new version is ${updated.id}:`, ...factDetails(updated, '  ')]);
  },
};

export const closeCommand: CommandSpec = {
  name: 'close',
  summary: 'mark a fact as no longer true from a given time',
  synopsis: 'close FACT_ID --at T',
  description: ['Sets invalid_at = T on a new version of the fact; the old version stays in the history.', 'Prints the new version (--json: its record).'],
  options: {
    at: { type: 'string', help: ['--at T', 'when it stopped being true (required)'] },
  },
  positionals: { min: 1, max: 1, name: 'FACT_ID' },
  run(ctx) {
    const id = ctx.positionals[0]!;
    const at = ctx.parseTime('at', ctx.required('at'));
    const closed = ctx.withMemory((memory) => {
      refuseEndNotAfterStart(ctx, memory, id, undefined, at, '--at');
      const result = closeOrSayEnd(memory, id, at);
      noteEndHeldBack(ctx, memory, result, at);
      return result;
    });
    if (ctx.json) return printJson(ctx.io, closed);
    // An end still to come is set, not closed: "Set the end of …" (shared/time-format.ts closeWord).
    printLines(ctx.io, [`${closeWord(closed, displayNow()) === 'Closed' ? 'Closed' : 'Set the end of'} ${id}; the new version is ${closed.id}:`, ...factDetails(closed, '  ')]);
  },
};

/** Closes the fact at `at`; at the end it already has, says that end, naming --at (the memory says only "the edit changes nothing"). */
function closeOrSayEnd(memory: Memory, id: string, at: { at: IsoTime; precision: Precision }): FactRecord {
  try {
    return memory.facts.close(id, at.at, at.precision);
  } catch (error) {
    const fact = memory.facts.currentVersionOf(id);
    if (!(error instanceof MemoryInputError) || error.message !== 'the edit changes nothing' || !fact || fact.invalid_at === null) throw error;
    throw new InputError(`--at: the fact already ends then (${formatEnding(fact, displayFormat(), displayNow())}); nothing changed`);
  }
}

/** Edits the fact; an edit that changes nothing because it reopens an open fact says so (the memory says only "the edit changes nothing"). */
function editOrSayWhy(memory: Memory, id: string, edit: FactEdit): FactRecord {
  try {
    return memory.facts.edit(id, edit);
  } catch (error) {
    if (!(error instanceof MemoryInputError) || !/the edit changes nothing$/.test(error.message) || edit.invalid_at !== null) throw error;
    if (memory.facts.currentVersionOf(id)?.invalid_at !== null) throw error;
    throw new InputError('--invalid-at none: the fact is already open (true until further notice); nothing changed');
  }
}

/** An end at or before the fact's start, said with both times in the user's zone (the memory would say them in UTC). */
function refuseEndNotAfterStart(ctx: CommandContext, memory: Memory, id: string, start: Resolved | undefined, end: Resolved | undefined, option: string): void {
  const message = endNotAfterStart(memory.facts.currentVersionOf(id), start, end, option, ctx.timeZone);
  if (message !== null) throw new InputError(message);
}

/**
 * An end given past the value that closes a one-valued fact is kept in its claim but moves nothing;
 * reopening such a fact drops it (shared/end-held-back). Said on stderr, naming that fact, so "Edited"
 * is not read as the end having moved.
 */
function noteEndHeldBack(ctx: CommandContext, memory: Memory, fact: FactRecord, end: Resolved | undefined): void {
  if (!end || fact.invalid_at === null || fact.invalid_at >= end.at) return;
  noteClosedByNext(ctx, memory, fact, true);
}

function noteReopenHeldBack(ctx: CommandContext, memory: Memory, fact: FactRecord): void {
  noteClosedByNext(ctx, memory, fact, false);
}

function noteClosedByNext(ctx: CommandContext, memory: Memory, fact: FactRecord, endGiven: boolean): void {
  const next = fact.invalidated_by === null ? undefined : memory.facts.currentVersionOf(fact.invalidated_by);
  const named = next ? `${next.id} (${JSON.stringify(escapeControls(next.fact))})` : 'the fact after it';
  const note = endHeldBack(fact, endGiven, displayFormat(), { to: 'user', subject: fact.id, next: named });
  if (note !== null) ctx.io.stderr(`tempora: note: ${note}\n`);
}

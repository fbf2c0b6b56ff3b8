/** `tempora facts` (list on the two time axes) and `tempora show` (one fact's versions and provenance). */
import { describeChange, describeReason, versionChanges } from '../../../shared/fact-history';
import type { FactRecord } from '../../../shared/memory-schema';
import { formatSaid } from '../../../shared/time-format';
import type { CommandSpec } from '../command';
import { displayFormat, displayNow, escapeControls, factDetails, factTable, formatAsked, formatTime, formatValidity, plural, printJson, printLines } from '../output';

export const factsCommand: CommandSpec = {
  name: 'facts',
  summary: 'list facts: current, as of a time, as known at a time, or every version',
  synopsis: 'facts [--as-of T] [--known-at T] [--subject NAME] [--predicate P] [--entity NAME] [--history] [--limit N]',
  description: [
    'Without options: the current facts (true now, as the memory holds them now).',
    'Times are ISO-8601 dates or times (2026-09-10, 2026-09-10T09:00, 2026-09-10T09:00:00+09:00), "now", or words',
    '("yesterday", "last March", "先週"); without a zone they are read in your time zone (--tz, $TEMPORA_TZ, else the system\'s).',
    '--json prints an array of fact records in the export format.',
  ],
  options: {
    'as-of': { type: 'string', help: ['--as-of T', 'facts that were true at T (valid time)'] },
    'known-at': { type: 'string', help: ['--known-at T', 'as the memory held them at T (record time)'] },
    subject: { type: 'string', help: ['--subject NAME', 'only facts about this subject (name or alias; "me" is you)'] },
    predicate: { type: 'string', help: ['--predicate P', 'only this predicate'] },
    entity: { type: 'string', help: ['--entity NAME', 'only facts with this entity as subject or object'] },
    history: { type: 'boolean', help: ['--history', 'every version: closed facts and expired (superseded) versions too'] },
    limit: { type: 'string', help: ['--limit N', 'at most N facts'] },
  },
  positionals: { min: 0, max: 0, name: '' },
  run(ctx) {
    const asOf = ctx.moment('as-of');
    const knownAt = ctx.moment('known-at');
    const query = {
      asOf: asOf?.at,
      knownAt: knownAt?.at,
      subject: ctx.string('subject'),
      predicate: ctx.string('predicate'),
      entity: ctx.string('entity'),
      history: ctx.flag('history'),
      limit: ctx.count('limit'),
    };
    // One more than asked tells a list cut by --limit from one that fits.
    const found = ctx.readMemory((memory) => memory.facts.list({ ...query, limit: query.limit === undefined ? undefined : query.limit + 1 }));
    const cut = query.limit !== undefined && found.length > query.limit;
    const facts = cut ? found.slice(0, query.limit) : found;
    if (ctx.json) return printJson(ctx.io, facts);
    const axes = [
      asOf !== undefined ? `as of ${formatAsked(asOf)}` : query.history ? 'at any time' : 'true now',
      knownAt !== undefined ? `known at ${formatAsked(knownAt)}` : query.history ? 'every version' : 'known now',
    ].join(', ');
    if (facts.length === 0) return printLines(ctx.io, [`No facts (${axes}).`]);
    const count = cut ? `Showing ${plural(facts.length, 'fact')}; more match (--limit ${query.limit})` : plural(facts.length, 'fact');
    printLines(ctx.io, [...factTable(facts), '', `${count} (${axes}; times in ${displayFormat().timeZone}).`]);
  },
};

export const showCommand: CommandSpec = {
  name: 'show',
  summary: "show a fact's versions, the messages it came from and what closed it",
  synopsis: 'show FACT_ID',
  description: [
    'FACT_ID may be the id of any version of the fact. Each version says what changed from the one before',
    '(field: before → after, in your time zone) and why (your edit, closed by another fact, learned from a message…).',
    '--json prints { fact, versions, episodes, closedBy, causes, keptEnd }.',
  ],
  options: {},
  positionals: { min: 1, max: 1, name: 'FACT_ID' },
  run(ctx) {
    const id = ctx.positionals[0]!;
    const provenance = ctx.readMemory((memory) => memory.facts.provenance(id));
    if (ctx.json) return printJson(ctx.io, provenance);
    const { fact, versions, episodes, closedBy, causes, keptEnd } = provenance;
    const history = new Map(versionChanges(versions, causes).map((c) => [c.id, c]));
    const current = versions.find((v) => v.expired_at === null);
    const lines = [...factDetails(fact)];
    if (keptEnd) lines.push(`${'kept end:'.padEnd(12)}${formatSaid(keptEnd.at, keptEnd.precision, displayFormat(), true)} (the end you gave; shows only if the value after it goes)`);
    lines.push('');
    if (fact.expired_at !== null) {
      lines.unshift(current ? `(an expired version; the current version is ${current.id})` : '(an expired version; the fact has no current version)', '');
    }
    lines.push(`Versions (${versions.length}, oldest first):`);
    for (const version of versions) {
      lines.push(`  ${versionLine(version, fact.id)}`);
      const change = history.get(version.id);
      if (!change) continue;
      const reason = describeReason(change.reason, version, displayNow());
      lines.push(`      why: ${reason.text}${reason.link ? ` (${reason.link.kind} ${reason.link.id})` : ''}`);
      for (const c of change.changes) lines.push(`      ${escapeControls(describeChange(c, displayFormat()))}`);
    }
    lines.push('', episodes.length ? `Source messages (${episodes.length}):` : 'Source messages: none');
    for (const episode of episodes) lines.push(`  ${episode.id}  said ${formatTime(episode.reference_time)}  ${escapeControls(JSON.stringify(episode.content))}`);
    if (closedBy) lines.push('', `Closed by ${closedBy.id}: ${escapeControls(closedBy.fact)} (${formatValidity(closedBy)})`);
    lines.push('', `Times in ${displayFormat().timeZone}.`);
    printLines(ctx.io, lines);
  },
};

function versionLine(version: FactRecord, shownId: string): string {
  const record = version.expired_at === null ? 'current' : `expired ${formatTime(version.expired_at)}`;
  const mark = version.id === shownId ? ' *' : '';
  return `${version.id}  ${escapeControls(version.object)}  valid ${formatValidity(version)}  recorded ${formatTime(version.created_at)}, ${record}  (${version.origin})${mark}`;
}

/**
 * The extraction evaluation as text: one table of recall and precision per component and category
 * (and language), the contradictions resolved, and the misses of each message when asked.
 */
import { CATEGORIES } from './case-schema';
import { compare, isFull } from './fact-match';
import type { MessageOutcome } from './run-scenarios';
import { COMPONENTS, scoreMessage, type Report, type Scores } from './score';

const num = (x: number | null, width = 5): string => (x === null ? '—' : x.toFixed(2)).padStart(width);

function row(label: string, s: Scores): string {
  const pr = COMPONENTS.map((c) => `${num(s.recall[c])} ${num(s.precision[c])}`).join('  ');
  const c = s.contradictions;
  const contradictions = c.resolved + c.open + c.missing ? `${num(c.rate)} (${c.resolved}/${c.resolved + c.open}${c.missing ? `, ${c.missing} missing` : ''})` : '    —';
  return `${label.padEnd(13)}${String(s.messages).padStart(4)}${String(s.expected).padStart(5)}${String(s.predicted).padStart(5)}  ${pr}  ${num(s.nothingLearned)}   ${contradictions}${s.failed ? `   ${s.failed} failed` : ''}`;
}

export function formatReport(r: Report, header: string): string {
  const lines = [header, ''];
  lines.push(`${''.padEnd(13)}${''.padStart(14)}  ${COMPONENTS.map((c) => c.padEnd(11)).join('  ')}`);
  lines.push(`${'category'.padEnd(13)}${'msgs'.padStart(4)}${'exp'.padStart(5)}${'got'.padStart(5)}  ${COMPONENTS.map(() => `${'R'.padStart(5)} ${'P'.padStart(5)}`).join('  ')}  ${'empty'.padStart(5)}   contradictions resolved`);
  for (const c of CATEGORIES) if (r.byCategory[c].messages) lines.push(row(c, r.byCategory[c]));
  lines.push(row('ALL', r.overall));
  for (const lang of ['en', 'ja'] as const) if (r.byLanguage[lang].messages) lines.push(row(`  ${lang}`, r.byLanguage[lang]));
  const o = r.overall;
  lines.push('');
  lines.push(`R/P: recall / precision of subject, predicate, object, dates (valid_at and invalid_at at the precision said) and whole facts; empty: messages with nothing to learn where nothing was learned.`);
  lines.push(`model calls per message ${num(o.modelCallsPerMessage, 0)}; ${num(o.msPerMessage === null ? null : o.msPerMessage / 1000, 0)} s per message.`);
  return lines.join('\n');
}

/** Per message that is not perfect: what was expected, what was stored, and which parts disagreed. */
export function formatMisses(outcomes: readonly MessageOutcome[], max = Infinity): string {
  const lines: string[] = [];
  let shown = 0;
  for (const o of outcomes) {
    const { pairs, counted } = scoreMessage(o);
    const perfect = pairs.length === o.expected.length && counted === o.expected.length && pairs.every((p) => isFull(p.match)) && o.closings.every((c) => c.state === 'resolved') && o.error === null;
    if (perfect) continue;
    if (shown++ >= max) break;
    lines.push(`\n[${o.scenario}#${o.index} ${o.category}] ${o.content}${o.error ? `\n   error: ${o.error}` : ''}`);
    for (const [i, e] of o.expected.entries()) {
      const pair = pairs.find((p) => p.expected === i);
      const got = pair ? o.predicted[pair.predicted]!.fact : undefined;
      const wrong = pair ? Object.entries(compare(e, got!, o.said)).filter(([, ok]) => !ok).map(([k]) => k) : [];
      lines.push(`   expected ${e.subject} | ${e.predicate} | ${e.object} | ${e.valid}→${e.invalid ?? 'open'}${got ? `\n        got ${got.subject} | ${got.predicate} | ${got.object} | ${got.valid_at} (${got.valid_at_precision})→${got.invalid_at ?? 'open'}${wrong.length ? `   wrong: ${wrong.join(', ')}` : ''}` : '   — not found'}`);
    }
    o.predicted.forEach((p, j) => {
      if (pairs.some((q) => q.predicted === j) || p.touched) return;
      lines.push(`   extra    ${p.fact.subject} | ${p.fact.predicate} | ${p.fact.object} | ${p.fact.valid_at}→${p.fact.invalid_at ?? 'open'}`);
    });
    for (const c of o.closings) if (c.state !== 'resolved') lines.push(`   contradiction with message ${c.closing.message} fact ${c.closing.fact}: ${c.state}`);
  }
  return lines.join('\n');
}

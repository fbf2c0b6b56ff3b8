/**
 * The extraction evaluation's data set is well formed: enough messages in both languages and every
 * category, each expected date a real date, each time phrase written in the message (or the
 * assistant's message it confirms) and read by the app's resolver as the case says, and the schema
 * refuses a malformed case.
 */
import { describe, expect, it } from 'vitest';
import { resolveTimeExpression } from '../../electron/memory/index';
import { CATEGORIES, fact, scenario, user } from '../eval/extraction/case-schema';
import { EXTRACTION_SCENARIOS, userMessageCount } from '../eval/extraction/cases';
import { dateMatches } from '../eval/extraction/fact-match';
import { ended } from '../eval/extraction/perfect-model';

const fold = (text: string) => text.normalize('NFKC').toLowerCase();
const userMessages = EXTRACTION_SCENARIOS.flatMap((s) => s.messages.map((m, i) => ({ s, m, i })).filter(({ m }) => m.role === 'user'));

describe('the extraction data set', () => {
  it('has at least 150 messages, in English and Japanese, in every category', () => {
    expect(userMessageCount(EXTRACTION_SCENARIOS)).toBeGreaterThanOrEqual(150);
    expect(new Set(EXTRACTION_SCENARIOS.map((s) => s.id)).size).toBe(EXTRACTION_SCENARIOS.length);
    for (const lang of ['en', 'ja'] as const) {
      const mine = userMessages.filter(({ s }) => s.lang === lang);
      expect(mine.length).toBeGreaterThanOrEqual(60);
      for (const category of CATEGORIES) expect(mine.filter(({ s, m }) => (m.category ?? s.category) === category).length, `${lang} ${category}`).toBeGreaterThanOrEqual(5);
    }
  });

  it('says what each category is about: nothing to learn in chit-chat, an earlier fact closed by every change and correction', () => {
    for (const { s, m, i } of userMessages) {
      const category = m.category ?? s.category;
      if (category === 'chit-chat') expect(m.expect, `${s.id}#${i}`).toEqual([]);
      if (category === 'change' || category === 'correction') expect(m.closes.length, `${s.id}#${i}`).toBeGreaterThan(0);
      if (category === 'statement' || category === 'dates') expect(m.expect.length, `${s.id}#${i}`).toBeGreaterThan(0);
    }
    expect(userMessages.filter(({ m }) => m.expect.some((f) => f.fromAssistant)).length).toBeGreaterThanOrEqual(10);
  });

  it('keeps each scenario in time order, and every expected date is a real date', () => {
    for (const s of EXTRACTION_SCENARIOS) {
      const times = s.messages.map((m) => Date.parse(m.time));
      expect(times.every((t) => Number.isFinite(t)), s.id).toBe(true);
      expect([...times].sort((a, b) => a - b), s.id).toEqual(times);
      for (const f of s.messages.flatMap((m) => m.expect)) {
        for (const d of [f.valid, f.invalid]) {
          if (d === null || d === 'said' || d === 'before') continue;
          const full = d.length === 4 ? `${d}-01-01` : d.length === 7 ? `${d}-01` : d;
          expect(new Date(`${full}T00:00:00Z`).toISOString().slice(0, 10), `${s.id}: ${d}`).toBe(full);
        }
      }
    }
  });

  it('writes each time phrase in the message, and the resolver reads it as the case says', () => {
    let phrases = 0;
    for (const { s, m, i } of userMessages) {
      const previous = s.messages[i - 1];
      const context = fold(`${m.content} ${previous?.role === 'assistant' ? previous.content : ''}`);
      const reference = { instant: m.time, zone: s.zone };
      for (const f of m.expect) {
        for (const [phrase, wanted, isEnd] of [[f.since, f.valid, false], [f.until, f.invalid, true]] as const) {
          if (phrase === '') continue;
          phrases += 1;
          const where = `${s.id}#${i} "${phrase}"`;
          if (phrase !== 'now') expect(context, where).toContain(fold(phrase));
          // An end still to come is read ahead, as ingestion reads it when the model says it is not over.
          const resolved = resolveTimeExpression(phrase, reference, { ahead: isEnd && !ended(f, m.time) });
          expect(resolved, where).not.toBeNull();
          expect(wanted === null || wanted === 'before' ? null : dateMatches(wanted, resolved!.at, resolved!.precision, { time: m.time, zone: s.zone }), where).toBe(true);
        }
        if (f.since === '') expect(['said', 'before'], `${s.id}#${i}: a date without its phrase`).toContain(f.valid);
      }
    }
    expect(phrases).toBeGreaterThanOrEqual(60);
  });

  it('refuses a malformed case: a closing that points forward, an assistant that teaches, a bad date', () => {
    const base = { id: 'x', lang: 'en', category: 'change', zone: 'UTC' } as const;
    const one = fact('me', 'lives_in', 'Rome', 'I live in Rome.');
    expect(scenario.safeParse({ ...base, messages: [user('2026-01-01T00:00:00Z', 'I live in Rome.', [one], { closes: [{ message: 0, fact: 0 }] })] }).success).toBe(false);
    expect(scenario.safeParse({ ...base, messages: [{ role: 'assistant', time: '2026-01-01T00:00:00Z', content: 'You live in Rome.', expect: [one] }] }).success).toBe(false);
    expect(scenario.safeParse({ ...base, messages: [user('2026-01-01T00:00:00Z', 'I live in Rome.', [{ ...one, valid: 'March 2026' }])] }).success).toBe(false);
    expect(scenario.safeParse({ ...base, messages: [user('2026-01-01T00:00:00Z', 'I live in Rome.', [one])] }).success).toBe(true);
  });
});

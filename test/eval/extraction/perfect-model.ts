/**
 * A scripted model that answers a scenario the way its cases say a careful reader would: each
 * message's expected facts as the extraction (the time phrases as written, else the expected date),
 * and, when judgement is asked, "contradiction" exactly for the earlier facts the message closes.
 * It proves the scorer (it must score 1.0) and is the yardstick the numbers of a real model sit under.
 * `mangle` lets a test change what it answers, to check that the scorer counts each loss.
 */
import type { ScriptedFact } from '../../fixtures/scripted-model';
import { scriptedModel, type ScriptedModel } from '../../fixtures/scripted-model';
import type { ExpectedFact, Scenario } from './case-schema';
import { normalizeText } from './fact-match';

export type Mangle = (facts: ScriptedFact[], message: { scenario: string; index: number; content: string }) => ScriptedFact[];

function dateText(phrase: string, spec: string | null): string {
  if (phrase !== '') return phrase;
  return spec === null || spec === 'said' || spec === 'before' ? '' : spec;
}

/** Over when the message was written: an end at or before the message's day ("it ran until August", said in September). */
export function ended(f: ExpectedFact, said: string): boolean {
  if (f.invalid === null) return false;
  return f.invalid === 'said' || f.invalid <= said.slice(0, f.invalid.length);
}

export function answerOf(f: ExpectedFact, said: string): ScriptedFact {
  return {
    subject: f.subject,
    subject_type: f.subject === 'me' ? 'user' : f.subjectType,
    predicate: f.predicate,
    object: f.object,
    object_type: f.objectType,
    fact: f.fact,
    cardinality: f.cardinality,
    since: dateText(f.since, f.valid),
    until: f.until !== '' ? f.until : f.invalid === 'said' ? 'now' : dateText('', f.invalid),
    ended: ended(f, said),
    from_assistant: f.fromAssistant,
  };
}

export function perfectModel(s: Scenario, mangle?: Mangle): ScriptedModel {
  const extract: Record<string, ScriptedFact[]> = {};
  const contradictions = new Set<string>();
  s.messages.forEach((m, index) => {
    if (m.role !== 'user') return;
    const facts = m.expect.map((f) => answerOf(f, m.time));
    extract[m.content] = mangle ? mangle(facts, { scenario: s.id, index, content: m.content }) : facts;
    for (const c of m.closes) {
      const old = s.messages[c.message]!.expect[c.fact]!;
      for (const f of m.expect) contradictions.add(JSON.stringify([old.fact, f.fact]));
    }
  });
  return scriptedModel({
    extract,
    judge: (stored, fresh) => (contradictions.has(JSON.stringify([stored, fresh])) ? 'contradiction' : stored === fresh ? 'duplicate' : 'unrelated'),
    sameName: (a, b) => normalizeText(a) === normalizeText(b),
  });
}

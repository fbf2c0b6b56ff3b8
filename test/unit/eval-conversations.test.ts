/**
 * The conversation set (test/eval/conversations, `npm run eval`) keeps its shape: the same seed gives
 * the same dialogues; every question's evidence is a fact of the memory built through observe; each
 * of the five kinds has at least 20 questions, in English and Japanese; the evidence is spread over
 * the whole history; events told "yesterday" / "昨日" are dated by their message; paraphrase
 * questions share no word with their evidence but the name. No recall thresholds: the figures are
 * `npm run eval`'s to report.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { liveFacts, resolveFactRef } from '../eval/eval-set';
import { buildConversationMemory } from '../eval/conversations/conversation-memory';
import { conversationDialogues, SESSIONS, type Dialogue } from '../eval/conversations/dialogues';
import { conversationQuestions, KINDS, type ConversationQuestion } from '../eval/conversations/questions';

const DAY = 86_400_000;
let memory: Memory;
let dialogues: Dialogue[];
let questions: ConversationQuestion[];

beforeAll(() => {
  const built = buildConversationMemory();
  memory = built.memory;
  dialogues = built.dialogues;
  questions = conversationQuestions(dialogues);
});

describe('the conversation set', () => {
  it('is generated from its seed: the same dialogues every time, other ones from another seed', () => {
    expect(JSON.stringify(conversationDialogues())).toBe(JSON.stringify(dialogues));
    expect(JSON.stringify(conversationDialogues(7))).not.toBe(JSON.stringify(dialogues));
  });

  it('holds long two-person dialogues, English and Japanese, in sessions months apart over two years', () => {
    expect(new Set(dialogues.map((d) => d.lang))).toEqual(new Set(['en', 'ja']));
    for (const dialogue of dialogues) {
      expect(dialogue.sessions).toHaveLength(SESSIONS);
      const subjects = new Set(dialogue.sessions.flatMap((s) => s.observations.map((o) => o.subject)));
      for (const speaker of dialogue.story) expect(subjects).toContain(speaker.name);
      const starts = dialogue.sessions.map((s) => Date.parse(s.at));
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(50 * DAY);
      expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(730 * DAY);
    }
  });

  it('has every question\'s evidence in the memory built through observe, one fact per reference', () => {
    const facts = liveFacts(memory);
    for (const question of questions) {
      expect(question.expected.length, question.id).toBeGreaterThan(0);
      for (const ref of question.expected) {
        const fact = memory.facts.get(resolveFactRef(memory, ref, facts))!;
        expect(fact.subject, question.id).toBe(ref.subject);
        expect(fact.invalid_at === null, `${question.id}: ${fact.fact}`).toBe(ref.state === 'current');
      }
    }
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
  });

  it('asks at least 20 questions of each kind, in English and in Japanese', () => {
    for (const kind of KINDS) {
      const ofKind = questions.filter((q) => q.kind === kind);
      expect(ofKind.length, kind).toBeGreaterThanOrEqual(20);
      expect(ofKind.filter((q) => q.lang === 'en').length, kind).toBeGreaterThanOrEqual(10);
      expect(ofKind.filter((q) => q.lang === 'ja').length, kind).toBeGreaterThanOrEqual(10);
      for (const q of ofKind.filter((x) => x.lang === 'ja')) expect(q.query, q.id).toMatch(/[\p{Script=Hiragana}\p{Script=Han}]/u);
    }
  });

  it('spreads the evidence over the whole history: every sixth of it, and both ends for every kind', () => {
    const told = (q: ConversationQuestion) => q.expected.map((e) => Date.parse(e.toldAt));
    const all = questions.flatMap(told);
    const starts = dialogues.flatMap((d) => d.sessions.map((s) => Date.parse(s.at)));
    const [first, last] = [Math.min(...starts), Math.max(...starts)];
    const part = (t: number) => Math.min(5, Math.floor(((t - first) / (last - first)) * 6));
    expect(new Set(all.map(part))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    for (const kind of KINDS) {
      const parts = new Set(questions.filter((q) => q.kind === kind).flatMap(told).map((t) => Math.floor(part(t) / 2)));
      expect(parts, kind).toContain(0);
      expect(parts, kind).toContain(2);
    }
  });

  it('dates an event told "yesterday" / "昨日" from its message: the day before, from midnight in the speaker\'s zone', () => {
    const events = questions.filter((q) => q.kind === 'temporal' && q.expected[0]!.predicate === 'went_to');
    expect(events.length).toBeGreaterThanOrEqual(16);
    for (const q of events) {
      const dialogue = dialogues.find((d) => d.id === q.dialogue)!;
      const fact = memory.facts.get(resolveFactRef(memory, q.expected[0]!))!;
      const said = dialogue.sessions.flatMap((s) => s.observations).find((o) => o.subject === fact.subject && o.object === fact.object)!;
      expect(said.valid_at, q.id).toBe(dialogue.lang === 'en' ? 'yesterday' : '昨日');
      const localDay = Date.parse(`${said.reference_time.slice(0, 10)}T00:00:00${said.reference_time.slice(19)}`);
      expect(fact.valid_at, q.id).toBe(new Date(localDay - DAY).toISOString());
      expect(fact.valid_at_precision, q.id).toBe('day');
    }
  });

  it('words a paraphrase question with nothing of its evidence but the name', () => {
    const paraphrases = questions.filter((q) => q.kind === 'paraphrase');
    for (const q of paraphrases) {
      const fact = memory.facts.get(resolveFactRef(memory, q.expected[0]!))!;
      const strip = (text: string) => text.replaceAll(q.expected[0]!.subject, ' ').toLowerCase();
      const shared = [...units(strip(q.query))].filter((u) => units(strip(fact.fact)).has(u));
      expect(shared, `${q.id}: "${q.query}" / "${fact.fact}"`).toEqual([]);
    }
  });
});

/** English words of three letters or more; Japanese pairs of characters holding a kanji or katakana. */
function units(text: string): Set<string> {
  const out = new Set<string>((text.match(/[a-z]{3,}/g) ?? []));
  for (let i = 0; i + 1 < text.length; i++) {
    const pair = text.slice(i, i + 2);
    if (/[\p{Script=Han}\p{Script=Katakana}]/u.test(pair) && !/\s/.test(pair)) out.add(pair);
  }
  return out;
}

/**
 * The conversation set's questions, built from each dialogue's story (dialogues.ts) and labelled by
 * their evidence: the facts that answer them, named by subject + predicate + object + state, resolved
 * to ids in the built memory by eval-set.ts's resolveFactRef. Five kinds, each asked in English of the
 * English dialogues and in Japanese of the Japanese ones:
 * - single: one fact ("Where does Ren work now?");
 * - multi-hop: two facts, the second about someone the first names ("Where does Mia's partner work?");
 * - temporal: a day or month named, the fact true or told then ("What did Mia do on 14 March 2025?");
 * - two-people: one fact about each of two people ("What do Mia and Ren both love?");
 * - paraphrase: no word shared with the fact but the name ("Which dance lessons does Mia go to?").
 * Questions carry no asOf: a time named in the question is retrieval's to read, as in the app.
 */
import type { FactRef } from '../questions';
import { localIso, sessionTime, type Dialogue, type SpeakerStory } from './dialogues';
import type { Lang } from './vocabulary';

export type Kind = 'single' | 'multi-hop' | 'temporal' | 'two-people' | 'paraphrase';
export const KINDS: readonly Kind[] = ['single', 'multi-hop', 'temporal', 'two-people', 'paraphrase'];

export interface Evidence extends FactRef {
  /** When the fact was told (the message's session start, ISO). */
  toldAt: string;
}

export interface ConversationQuestion {
  id: string;
  kind: Kind;
  lang: Lang;
  dialogue: string;
  query: string;
  expected: Evidence[];
}

const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A day or month as the question says it, at the speakers' offset. */
function dayWords(lang: Lang, ms: number, offset: number): string {
  const [y, m, d] = localIso(ms, offset).slice(0, 10).split('-').map(Number) as [number, number, number];
  return lang === 'en' ? `${d} ${EN_MONTHS[m - 1]} ${y}` : `${y}年${m}月${d}日`;
}
function monthWords(lang: Lang, ms: number, offset: number): string {
  const [y, m] = localIso(ms, offset).slice(0, 7).split('-').map(Number) as [number, number];
  return lang === 'en' ? `${EN_MONTHS[m - 1]} ${y}` : `${y}年${m}月`;
}

type Ask = Record<Lang, string>;

export function conversationQuestions(dialogues: readonly Dialogue[]): ConversationQuestion[] {
  const out: ConversationQuestion[] = [];
  for (const [d, dialogue] of dialogues.entries()) {
    const { lang, offset } = dialogue;
    const told = (session: number) => localIso(sessionTime(dialogue, session), offset);
    const ev = (subject: string, predicate: string, object: string, session: number, state: FactRef['state'] = 'current'): Evidence => ({ subject, predicate, object, state, toldAt: told(session) });
    let n = 0;
    const ask = (kind: Kind, words: Ask, expected: Evidence[]) => out.push({ id: `${dialogue.id}-q${String(++n).padStart(2, '0')}`, kind, lang, dialogue: dialogue.id, query: words[lang], expected });
    const [a, b] = dialogue.story;
    const [A, B] = [a.name, b.name];
    // The speaker asked about alternates with the dialogue, so each beat is asked of both kinds of speaker.
    const [x, y]: [SpeakerStory, SpeakerStory] = d % 2 === 0 ? [a, b] : [b, a];
    const [X, Y] = [x.name, y.name];

    // ---- single ----
    ask('single', { en: `What is the name of ${X}'s cat?`, ja: `${X}の猫の名前は？` }, [ev(X, 'has_pet', x.cat.name, x.cat.session)]);
    ask('single', { en: `Where does ${Y} live now?`, ja: `${Y}は今どこに住んでいる？` }, [ev(Y, 'lives_in', y.homes[1]!.city, y.homes[1]!.session)]);
    ask('single', { en: `Who is ${X}'s partner now?`, ja: `${X}の今の恋人は誰？` }, [ev(X, 'partner', x.partners[1]!.name, x.partners[1]!.session)]);
    ask('single', { en: `Where does ${Y} work now?`, ja: `${Y}は今どこで働いている？` }, [ev(Y, 'works_at', y.jobs[2]!.company, y.jobs[2]!.session)]);
    ask('single', { en: `Who is ${X}'s sister?`, ja: `${X}の妹は誰？` }, [ev(X, 'sister', x.sister.name, x.sister.session)]);

    // ---- multi-hop ----
    for (const s of [x, y]) {
      ask('multi-hop', { en: `What is the name of the dog ${s.name}'s friend adopted?`, ja: `${s.name}の友達が飼い始めた犬の名前は？` }, [
        ev(s.name, 'friend', s.friend.name, s.friend.session),
        ev(s.friend.name, 'has_pet', s.friendDog.name, s.friendDog.session),
      ]);
    }
    ask('multi-hop', { en: `Where does ${X}'s partner work?`, ja: `${X}の恋人はどこで働いている？` }, [
      ev(X, 'partner', x.partners[1]!.name, x.partners[1]!.session),
      ev(x.partners[1]!.name, 'works_at', x.partnerCompany.company, x.partnerCompany.session),
    ]);
    ask('multi-hop', { en: `Which city did ${Y}'s sister move to?`, ja: `${Y}の妹はどの町に引っ越した？` }, [
      ev(Y, 'sister', y.sister.name, y.sister.session),
      ev(y.sister.name, 'lives_in', y.sisterCity.city, y.sisterCity.session),
    ]);

    // ---- temporal ----
    for (const [s, start] of [[x, 3], [y, 9]] as const) {
      // An event told as "yesterday", from a session that moves with the dialogue.
      const first = (start + d * 5) % dialogue.sessions.length;
      const event = [...s.events.slice(first), ...s.events.slice(0, first)].find((e) => e.when === 'yesterday')!;
      const day = dayWords(lang, sessionTime(dialogue, event.session) - 86_400_000, offset);
      ask('temporal', { en: `What did ${s.name} do on ${day}?`, ja: `${day}に${s.name}は何をした？` }, [ev(s.name, 'went_to', event.event, event.session)]);
    }
    const job = d % 2 === 0 ? 0 : 1;
    const jobMonth = monthWords(lang, (sessionTime(dialogue, x.jobs[job]!.session) + sessionTime(dialogue, x.jobs[job + 1]!.session)) / 2, offset);
    ask('temporal', { en: `Where did ${X} work in ${jobMonth}?`, ja: `${jobMonth}に${X}はどこで働いていた？` }, [ev(X, 'works_at', x.jobs[job]!.company, x.jobs[job]!.session, 'closed')]);
    const dateMonth = monthWords(lang, (sessionTime(dialogue, y.partners[0]!.session) + sessionTime(dialogue, y.partners[1]!.session)) / 2, offset);
    ask('temporal', { en: `Who was ${Y} going out with in ${dateMonth}?`, ja: `${dateMonth}に${Y}が付き合っていたのは誰？` }, [ev(Y, 'partner', y.partners[0]!.name, y.partners[0]!.session, 'closed')]);

    // ---- two people ----
    ask('two-people', { en: `What do ${A} and ${B} both love?`, ja: `${A}と${B}が二人とも大好きなものは？` }, [
      ev(A, 'likes', a.sharedLike.thing, a.sharedLike.session), ev(B, 'likes', b.sharedLike.thing, b.sharedLike.session)]);
    ask('two-people', { en: `Which city have both ${A} and ${B} taken a trip to?`, ja: `${A}と${B}が二人とも旅行した町は？` }, [
      ev(A, 'visited', a.trip.city, a.trip.session), ev(B, 'visited', b.trip.city, b.trip.session)]);
    ask('two-people', { en: `What are the names of ${A}'s and ${B}'s cats?`, ja: `${A}と${B}の猫の名前は？` }, [
      ev(A, 'has_pet', a.cat.name, a.cat.session), ev(B, 'has_pet', b.cat.name, b.cat.session)]);

    // ---- paraphrase ----
    for (const s of [a, b]) {
      for (const p of s.paraphrases) ask('paraphrase', { en: p.paraphrase.question(s.name), ja: p.paraphrase.question(s.name) }, [ev(s.name, p.paraphrase.predicate, p.paraphrase.object, p.session)]);
    }
  }
  return out;
}

/**
 * The conversation set's dialogues, generated from a seed (the same seed, the same dialogues): eight
 * long conversations between two people, four in English and four in Japanese, each in 14 sessions
 * about two months apart (June 2024 – late 2026). Every message is a structured observation (what
 * extraction would keep of it) with the message's own time and zone as reference_time, so events
 * told "yesterday" / "last week" / "昨日" / "先週" are dated by their message. Over each history the
 * speakers change jobs twice, move, change partners, name friends and a sister who later have news
 * of their own, adopt pets, share likes and trips, and chat about nothing in particular.
 *
 * The story beats land on sessions that vary with the dialogue, so the facts questions ask about
 * are spread over the whole history, not only its start (questions.ts reads `story`).
 */
import { prng } from '../../fixtures/prng';
import { PARAPHRASES, POOLS, SENTENCES, type Lang, type Paraphrase } from './vocabulary';

export const DIALOGUES_SEED = 2028;
export const SESSIONS = 14;
const DAY = 86_400_000;
const FIRST_SESSION = Date.UTC(2024, 5, 1);
/** Sessions are this far apart, plus up to ten days. */
const SESSION_GAP_DAYS = 60;

export interface DialogueObservation {
  subject: string;
  predicate: string;
  object: string;
  object_type: 'entity' | 'literal';
  fact: string;
  cardinality: 'one' | 'many';
  /** The message's time with the speaker's offset (e.g. 2025-03-14T20:03:00+09:00). */
  reference_time: string;
  valid_at?: string;
}

export interface DialogueSession {
  id: string;
  title: string;
  /** The session's first message, with the speakers' offset. */
  at: string;
  observations: DialogueObservation[];
}

/** What happened to one speaker, where questions find it: each beat with the session it was told in. */
export interface SpeakerStory {
  name: string;
  jobs: { company: string; session: number }[];
  homes: { city: string; session: number }[];
  partners: { name: string; session: number }[];
  partnerCompany: { company: string; session: number };
  friend: { name: string; session: number };
  friendDog: { name: string; session: number };
  sister: { name: string; session: number };
  sisterCity: { city: string; session: number };
  cat: { name: string; session: number };
  sharedLike: { thing: string; session: number };
  trip: { city: string; session: number };
  events: { event: string; session: number; when: 'yesterday' | 'last week' }[];
  paraphrases: { paraphrase: Paraphrase; session: number }[];
}

export interface Dialogue {
  id: string;
  lang: Lang;
  /** Hours east of UTC the speakers live in. */
  offset: number;
  sessions: DialogueSession[];
  story: [SpeakerStory, SpeakerStory];
}

/** A Date's wall clock at `offset` hours, as ISO with that offset. */
export function localIso(ms: number, offset: number): string {
  const wall = new Date(ms + offset * 3_600_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.abs(offset)).padStart(2, '0')}:00`;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Takes items off the front of a shuffled pool: no two beats of one dialogue share a name or place. */
function drawer<T>(items: readonly T[], random: () => number): () => T {
  const pool = shuffled(items, random);
  return () => {
    const next = pool.shift();
    if (next === undefined) throw new Error('conversation set: a vocabulary pool ran out');
    return next;
  };
}

type Beat = { session: number; speaker: 0 | 1; observation: Omit<DialogueObservation, 'reference_time'> };

function dialogue(index: number, lang: Lang, names: () => string, seed: number): Dialogue {
  const random = prng(seed * 1_000 + index);
  const pools = POOLS[lang];
  const say = SENTENCES[lang];
  const d = index;
  const [company, city, pet, like] = [drawer(pools.companies, random), drawer(pools.cities, random), drawer(pools.pets, random), drawer(pools.likes, random)];
  const beats: Beat[] = [];
  const add = (session: number, speaker: 0 | 1, subject: string, predicate: string, object: string, fact: string, extra: Partial<DialogueObservation> = {}) =>
    beats.push({ session, speaker, observation: { subject, predicate, object, object_type: 'entity', fact, cardinality: 'many', ...extra } });
  const one = { cardinality: 'one' as const };
  const literal = { object_type: 'literal' as const };
  const lastWeek = { valid_at: say.lastWeek };

  const speakers = [names(), names()] as const;
  const shared = { like: like(), trip: city() };
  const story = speakers.map((x, si): SpeakerStory => {
    const s = si as 0 | 1;
    const people = { p1: names(), p2: names(), friend: names(), sister: names() };
    const jobs = [{ company: company(), session: 0 }, { company: company(), session: 3 + ((d + si) % 3) }, { company: company(), session: 10 + ((d + si) % 3) }];
    const homes = [{ city: city(), session: 0 }, { city: city(), session: 6 + ((d + si) % 4) }];
    const partners = [{ name: people.p1, session: 1 + ((d + si) % 3) }, { name: people.p2, session: 7 + ((d + 2 * si) % 4) }];
    const partnerCompany = { company: company(), session: Math.min(SESSIONS - 1, partners[1]!.session + 1 + (d % 3)) };
    const friend = { name: people.friend, session: 1 + ((d + 2 * si) % 4) };
    const friendDog = { name: pet(), session: 8 + ((d + 3 * si) % 6) };
    const sister = { name: people.sister, session: 0 };
    const sisterCity = { city: city(), session: 4 + ((2 * d + si) % 8) };
    const cat = { name: pet(), session: 1 + ((3 * d + 5 * si) % 12) };
    const sharedLike = { thing: shared.like, session: si === 0 ? 1 + (d % 5) : 8 + ((d + 1) % 6) };
    const trip = { city: shared.trip, session: si === 0 ? 2 + (d % 4) : 9 + (d % 5) };
    const events = Array.from({ length: SESSIONS }, (_, k) => ({
      event: pools.events[(k + 7 * si + d) % pools.events.length]!,
      session: k,
      when: (k + si) % 2 === 0 ? ('yesterday' as const) : ('last week' as const),
    }));
    const templates = PARAPHRASES[lang];
    const paraphrases = [0, 1].map((j) => ({ paraphrase: templates[(2 * d + 3 * si + j) % templates.length]!, session: 1 + ((2 + d + 5 * si + 6 * j) % (SESSIONS - 1)) }));

    add(0, s, x, 'works_at', jobs[0]!.company, say.worksAt(x, jobs[0]!.company), { ...one, valid_at: '2023-04-01' });
    add(0, s, x, 'lives_in', homes[0]!.city, say.livesIn(x, homes[0]!.city), { ...one, valid_at: '2022-01-01' });
    add(0, s, x, 'sister', sister.name, say.sister(x, sister.name), { valid_at: '1995-01-01' });
    for (const job of jobs.slice(1)) add(job.session, s, x, 'works_at', job.company, say.newJob(x, job.company), { ...one, ...lastWeek });
    add(homes[1]!.session, s, x, 'lives_in', homes[1]!.city, say.moved(x, homes[1]!.city), { ...one, ...lastWeek });
    add(partners[0]!.session, s, x, 'partner', partners[0]!.name, say.dating(x, partners[0]!.name), one);
    add(partners[1]!.session, s, x, 'partner', partners[1]!.name, say.newPartner(x, partners[1]!.name), one);
    add(partnerCompany.session, s, partners[1]!.name, 'works_at', partnerCompany.company, say.worksAt(partners[1]!.name, partnerCompany.company), one);
    add(friend.session, s, x, 'friend', friend.name, say.friend(x, friend.name));
    add(friendDog.session, s, friend.name, 'has_pet', friendDog.name, say.adoptedDog(friend.name, friendDog.name));
    add(sisterCity.session, s, sister.name, 'lives_in', sisterCity.city, say.moved(sister.name, sisterCity.city), { ...one, ...lastWeek });
    add(cat.session, s, x, 'has_pet', cat.name, say.adoptedCat(x, cat.name));
    add(sharedLike.session, s, x, 'likes', sharedLike.thing, say.likes(x, sharedLike.thing), literal);
    for (const k of [0, 5 + si, 11 - si]) {
      const thing = like();
      add(k, s, x, 'likes', thing, say.likes(x, thing), literal);
    }
    add(trip.session, s, x, 'visited', trip.city, say.trip(x, trip.city, say.lastWeek), lastWeek);
    for (const e of events) {
      const when = e.when === 'yesterday' ? say.yesterday : say.lastWeek;
      add(e.session, s, x, 'went_to', e.event, say.event(x, e.event, when), { ...literal, valid_at: when });
    }
    for (const p of paraphrases) add(p.session, s, x, p.paraphrase.predicate, p.paraphrase.object, p.paraphrase.fact(x), literal);
    for (let k = 0; k < SESSIONS; k++) {
      const talk = say.smallTalk[(k * 3 + si + d) % say.smallTalk.length]!;
      const text = talk(x, pools.foods[Math.floor(random() * pools.foods.length)]!, pools.topics[Math.floor(random() * pools.topics.length)]!);
      add(k, s, x, 'said', text, text, literal);
    }
    return { name: x, jobs, homes, partners, partnerCompany, friend, friendDog, sister, sisterCity, cat, sharedLike, trip, events, paraphrases };
  });

  const offset = lang === 'ja' ? 9 : 1;
  const sessions: DialogueSession[] = [];
  for (let k = 0; k < SESSIONS; k++) {
    const day = FIRST_SESSION + (d * 9 + k * SESSION_GAP_DAYS + Math.floor(random() * 10)) * DAY;
    const start = day + (20 - offset) * 3_600_000; // 20:00 at the speakers' offset
    // The two speakers take turns: A's beats and B's interleaved, a message every three minutes.
    const mine = [0, 1].map((s) => beats.filter((b) => b.session === k && b.speaker === s));
    const turns: Beat[] = [];
    for (let i = 0; i < Math.max(mine[0]!.length, mine[1]!.length); i++) for (const list of mine) if (list[i]) turns.push(list[i]!);
    sessions.push({
      id: `conv${d + 1}-s${String(k + 1).padStart(2, '0')}`,
      title: `${speakers[0]} & ${speakers[1]}, session ${k + 1}`,
      at: localIso(start, offset),
      observations: turns.map((b, i) => ({ ...b.observation, reference_time: localIso(start + i * 180_000, offset) })),
    });
  }
  return { id: `conv${d + 1}`, lang, offset, sessions, story: story as [SpeakerStory, SpeakerStory] };
}

/** The eight dialogues (conv1–conv4 English, conv5–conv8 Japanese). */
export function conversationDialogues(seed = DIALOGUES_SEED): Dialogue[] {
  const random = prng(seed);
  const names = { en: drawer(POOLS.en.names, random), ja: drawer(POOLS.ja.names, random) };
  return Array.from({ length: 8 }, (_, i) => {
    const lang: Lang = i < 4 ? 'en' : 'ja';
    return dialogue(i, lang, names[lang], seed);
  });
}

/** When a session of a dialogue began, in ms. */
export function sessionTime(dialogue: Dialogue, session: number): number {
  return Date.parse(dialogue.sessions[session]!.at);
}

export function observationCount(dialogues: readonly Dialogue[]): number {
  return dialogues.reduce((n, d) => n + d.sessions.reduce((m, s) => m + s.observations.length, 0), 0);
}

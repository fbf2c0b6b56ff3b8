/**
 * Words as a question and a fact share them: a question word counts where a word of the fact BEGINS
 * with its stem ("friend" → "friends", "hiking" → hik → "hiked"), never inside another word ("long"
 * is not in "belonging", "made" not in "homemade") and not in an adverb made from it ("current" is
 * not "currently"). Stems are Snowball's English stemmer (snowball-stemmers); irregular verbs
 * ("bought" / "buy", "went" / "go") come from a small table of their forms. Stop words are
 * stopwords-iso's English list, less the words a person's facts are about ("work", "home", "buy",
 * "name", "AI" …) and plus the words every question about a memory says ("remember").
 * CJK text has no word boundaries: its pairs keep matching anywhere (query-terms.ts). Its
 * Japanese list is not used: dropping the pairs it names (です, ます) lowered the fixture's
 * Japanese recall@10 (a 転勤します fact fell from the top 10), measured 2026-12-02.
 */
import { createRequire } from 'node:module';

interface Stemmer {
  stem(word: string): string;
}

const load = createRequire(import.meta.url);

/** stopwords-iso's words that say what a fact is about: kept as search terms. */
const CONTENT_WORDS =
  'ai tv uk buy mug new old run ran web fix adopted bill computer date fire first group home member members microsoft move name names novel ' +
  'research ring room rooms school state states system test website webpage work worked working works world year years young younger older oldest ' +
  'began begin beginning begins invention information like likes liked going';
/** Words every question to a memory says, which stopwords-iso does not list. */
const QUESTION_WORDS = 'days day time remember remembered';

let stopWords: Set<string> | undefined;

/** An English (or other spaced-script) word that says nothing about what is asked. */
export function isStopWord(word: string): boolean {
  if (!stopWords) {
    const keep = new Set(CONTENT_WORDS.split(' '));
    stopWords = new Set(((load('stopwords-iso') as Record<string, string[]>).en ?? []).filter((w) => !keep.has(w)));
    for (const w of QUESTION_WORDS.split(' ')) stopWords.add(w);
  }
  return stopWords.has(word);
}

/** Irregular verbs: the base form, then its past and participle forms. */
const IRREGULAR =
  'buy bought|go went gone|tell told|leave left|bring brought|begin began begun|hold held|write wrote written|stand stood|hear heard|' +
  'meet met|run ran|pay paid|sit sat|speak spoke spoken|lead led|grow grew grown|lose lost|fall fell fallen|send sent|build built|' +
  'draw drew drawn|break broke broken|spend spent|rise rose risen|drive drove driven|teach taught|catch caught|sell sold|fight fought|' +
  'win won|eat ate eaten|drink drank drunk|sing sang sung|swim swam swum|fly flew flown|wear wore worn|choose chose chosen|' +
  'forget forgot forgotten|ride rode ridden|sleep slept|steal stole stolen|throw threw thrown|wake woke woken|shoot shot|feed fed|' +
  'hang hung|hide hid hidden|mean meant|dig dug|bite bit bitten|freeze froze frozen|lend lent|bend bent|blow blew blown|seek sought|' +
  'shake shook shaken|sink sank sunk|sweep swept|tear tore torn|weep wept|give gave given|take took taken|see saw seen|know knew known|' +
  'think thought|find found|feel felt|keep kept|make made|come came|get got gotten|do did done|have had|say said';

let irregular: Map<string, string[]> | undefined;
/** Every form of an irregular verb → all its forms, the base first. */
function irregularForms(word: string): string[] | undefined {
  if (!irregular) {
    irregular = new Map();
    for (const group of IRREGULAR.split('|')) {
      const forms = group.split(' ');
      for (const form of forms) if (!irregular.has(form)) irregular.set(form, forms);
    }
  }
  return irregular.get(word);
}

let english: Stemmer | undefined;
const stems = new Map<string, string>();

/** Snowball's English stem of a lower-case word ("hiking" → "hike", "studies" → "studi"). */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    english ??= (load('snowball-stemmers') as { newStemmer(language: string): Stemmer }).newStemmer('english');
    s = /^[a-z]+$/.test(word) ? english.stem(word) : word;
    if (stems.size > 10_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/**
 * What the index is searched by for a stem: a word of the fact that is a form of it begins with
 * this. Snowball's "hike" and "studi" lose the final e or i that "hiking" and "study" lack ("hik",
 * "stud"); a doubled vowel stays ("tree"). The trigram index matches it anywhere; holdsWord decides.
 */
export function indexForm(term: string): string {
  if (term.length > 3 && /[^aeiou][ei]$/.test(term)) return term.slice(0, -1);
  return term;
}

/**
 * The terms one question word is searched by: its stem, and for an irregular verb every form of
 * it ("bought" → buy, bought). Empty for a stop word, unless `stopWordsToo` (a query of common
 * words alone still searches them).
 */
export function termsOfWord(word: string, stopWordsToo = false): string[] {
  if (word === '' || (isStopWord(word) && !stopWordsToo)) return [];
  const forms = irregularForms(word);
  if (forms) return [...new Set([stem(forms[0]!), ...forms.slice(1)])];
  // A stem under 3 characters ("going" → go) would count only as a whole word: the word itself does.
  const stemmed = stem(word);
  return [stemmed.length < 3 && word.length > stemmed.length ? word : stemmed];
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /[\p{L}\p{M}\p{N}]/u;

/** A character that continues a word: a letter or digit of a spaced script (CJK runs have no words). */
function inWord(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
  return LETTER.test(ch) && !CJK.test(ch);
}

/**
 * Whether `folded` (lower case) holds a word that is a form of the stem `term`: a word that begins
 * with it ("friends", "lives_in") unless the rest makes an adverb of it ("currently"), or one whose
 * stem it is ("hiking" for hike, "study" for studi). A term under 3 characters ("ai", "go") counts
 * only as the whole word or its plural. Never inside a word: "long" is not in "belonging".
 */
export function holdsWord(folded: string, term: string): boolean {
  const start = term.length < 3 ? term : indexForm(term);
  for (let i = folded.indexOf(start); i >= 0; i = folded.indexOf(start, i + 1)) {
    if (inWord(folded[i - 1])) continue;
    let end = i + start.length;
    while (inWord(folded[end])) end++;
    const word = folded.slice(i, end);
    if (term.length < 3) {
      if (word === term || word === `${term}s`) return true;
    } else if (word.startsWith(term)) {
      const rest = word.slice(term.length);
      if (!(rest.length >= 2 && rest.endsWith('ly'))) return true;
    } else if (stem(word) === term) return true;
  }
  return false;
}

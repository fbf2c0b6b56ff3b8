/**
 * The retrieval evaluation's questions over the fixture (fixture-memory.ts). Each names the facts
 * that answer it by subject + predicate + object + state (current or closed); eval-set.ts resolves
 * them to fact ids after the memory is built, so the set survives id changes and fails loudly when
 * the fixture and the questions drift apart.
 *
 * Categories:
 * - current: what is true now;
 * - past: what was true at some time (with `asOf` where the question names a time, else relying on
 *   the history intent);
 * - change: when something changed, or the sequence of values;
 * - japanese: asked in Japanese (about Japanese or English facts);
 * - entity: about a person, pet or organisation by name;
 * - paraphrase: shares few or no words with the fact (where vectors should help).
 *
 * Tags: 'cross-lingual' — asked in one language about a fact told in the other (full text cannot
 * bridge that; a multilingual embedding model can). 'intent' — needs closed facts although the
 * question carries no past/change cue the intent detector knows.
 */

export type Category = 'current' | 'past' | 'change' | 'japanese' | 'entity' | 'paraphrase';
export const CATEGORIES: readonly Category[] = ['current', 'past', 'change', 'japanese', 'entity', 'paraphrase'];

export type Tag = 'cross-lingual' | 'intent';

/** A fact named by content: subject + predicate + object as observed, and whether it is still true. */
export interface FactRef {
  subject: string;
  predicate: string;
  object: string;
  /** 'current': open now; 'closed': ended (invalid_at set). Default: whichever the single match is. */
  state?: 'current' | 'closed';
}

export interface EvalQuestion {
  id: string;
  category: Category;
  query: string;
  expected: FactRef[];
  /** A date (YYYY-MM-DD) the question asks about: retrieval runs "as of" it. */
  asOf?: string;
  tags?: Tag[];
  note?: string;
}

const cur = (subject: string, predicate: string, object: string): FactRef => ({ subject, predicate, object, state: 'current' });
const old = (subject: string, predicate: string, object: string): FactRef => ({ subject, predicate, object, state: 'closed' });

const q = (id: string, category: Category, query: string, expected: FactRef[], extra: Partial<Pick<EvalQuestion, 'asOf' | 'tags' | 'note'>> = {}): EvalQuestion => ({ id, category, query, expected, ...extra });

const XL: Tag[] = ['cross-lingual'];

export const EVAL_QUESTIONS: EvalQuestion[] = [
  // ---- current ----
  q('c01', 'current', 'Who is my manager?', [cur('me', 'manager', 'Yamamoto')]),
  q('c02', 'current', 'Where do I live?', [cur('me', 'lives_in', 'Osaka')]),
  q('c03', 'current', 'Where do I work?', [cur('me', 'works_at', 'Kiyomizu Systems')]),
  q('c04', 'current', 'What is my job title?', [cur('me', 'job_title', 'engineering lead')]),
  q('c05', 'current', 'Which team do I lead?', [cur('me', 'team', 'platform team')]),
  q('c06', 'current', 'How do I commute to work?', [cur('me', 'commute', 'bicycle')]),
  q('c07', 'current', 'What pets do I have?', [cur('me', 'has_pet', 'Mochi'), cur('me', 'has_pet', 'Kuro')]),
  q('c08', 'current', "What is my cat's name?", [cur('me', 'has_pet', 'Mochi')]),
  q('c09', 'current', 'What is my favourite restaurant?', [cur('me', 'favorite_restaurant', 'Mizuno')], { tags: XL }),
  q('c10', 'current', 'What am I reading at the moment?', [cur('me', 'reading', 'Project Hail Mary')]),
  q('c11', 'current', 'What phone do I use?', [cur('me', 'phone', 'Pixel 9')]),
  q('c12', 'current', 'Am I married?', [cur('me', 'relationship_status', 'married to Aiko')]),
  q('c13', 'current', 'Who is my doctor?', [cur('me', 'doctor', 'Dr. Okada')]),
  q('c14', 'current', 'What hobbies do I have now?', [cur('me', 'hobby', 'running'), cur('me', 'hobby', 'bouldering'), cur('me', 'hobby', 'pottery')], { tags: XL, note: 'pottery was told in Japanese' }),
  q('c15', 'current', "What's my half marathon personal best?", [cur('me', 'half_marathon_best', '1:47')]),
  q('c16', 'current', 'Which online course am I taking?', [cur('me', 'course', 'machine learning course')]),
  q('c17', 'current', 'How many engineers are on my team?', [cur('me', 'team_size', 'five engineers')]),
  q('c18', 'current', 'Who is my wife?', [cur('me', 'spouse', 'Aiko')]),
  q('c19', 'current', 'What is my name?', [cur('me', 'name', 'Kenji Mori')]),
  q('c20', 'current', 'When is my birthday?', [cur('me', 'birthday', 'March 14')]),
  q('c21', 'current', 'Which hospital does Aiko work at?', [cur('Aiko', 'works_at', 'Osaka University Hospital')]),
  q('c22', 'current', 'What languages do I speak?', [cur('me', 'speaks', 'Japanese and English')]),

  // ---- past ----
  q('p01', 'past', 'Who was my manager in early September 2025?', [old('me', 'manager', 'Tanaka')], { asOf: '2025-09-05' }),
  q('p02', 'past', 'Who was my manager in December 2025?', [old('me', 'manager', 'Sato')], { asOf: '2025-12-15' }),
  q('p03', 'past', 'Where did I live before I moved to Osaka?', [old('me', 'lives_in', 'Tokyo')], { tags: XL }),
  q('p04', 'past', 'What was my job title before the promotion?', [old('me', 'job_title', 'backend engineer')]),
  q('p05', 'past', 'Where did I work in 2025?', [old('me', 'works_at', 'Hoshino Robotics')], { asOf: '2025-10-01' }),
  q('p06', 'past', 'What team was I on before?', [old('me', 'team', 'payments team')]),
  q('p07', 'past', 'What book was I reading in August 2025?', [old('me', 'reading', 'Norwegian Wood')], { asOf: '2025-08-15' }),
  q('p08', 'past', 'Did I have a hamster?', [old('me', 'has_pet', 'Pico')]),
  q('p09', 'past', 'What phone did I use before the Pixel?', [old('me', 'phone', 'iPhone 14')]),
  q('p10', 'past', 'Which gym was I a member of?', [old('me', 'gym', "Gold's Gym Shibuya")]),
  q('p11', 'past', 'What car did I drive?', [old('me', 'owns_car', 'Toyota Prius')]),
  q('p12', 'past', 'Where did Aiko work in 2025?', [old('Aiko', 'works_at', "St. Luke's Hospital")], { asOf: '2025-12-01' }),
  q('p13', 'past', 'Where did Emma live before Kobe?', [old('Emma', 'lives_in', 'Yokohama')]),
  q('p14', 'past', 'Who was my doctor in Tokyo?', [old('me', 'doctor', 'Dr. Nakamura')]),
  q('p15', 'past', 'Was I engaged in March 2026?', [old('me', 'relationship_status', 'engaged to Aiko')], { asOf: '2026-03-15' }),
  q('p16', 'past', 'Was I vegetarian in March 2026?', [old('me', 'diet', 'vegetarian')], { asOf: '2026-03-15' }),
  q('p17', 'past', 'What video game was I playing in November 2025?', [old('me', 'plays_game', 'Elden Ring')], { asOf: '2025-11-15' }),
  q('p18', 'past', 'What was my half marathon personal best last year?', [old('me', 'half_marathon_best', '1:52')]),
  q('p19', 'past', 'Where did Ryo live last year?', [old('Ryo', 'lives_in', 'Tokyo')], { asOf: '2025-12-01' }),
  q('p20', 'past', "What was Aiko's name before the wedding?", [old('Aiko', 'full_name', 'Aiko Hayashi')]),
  q('p21', 'past', 'Where did my sister study?', [old('Yui', 'studies_at', 'Waseda University')], { tags: XL }),

  // ---- change ----
  q('h01', 'change', 'When did I move to Osaka?', [cur('me', 'lives_in', 'Osaka')]),
  q('h02', 'change', 'When did my manager change to Sato?', [old('me', 'manager', 'Sato')]),
  q('h03', 'change', 'When did I start working at Kiyomizu Systems?', [cur('me', 'works_at', 'Kiyomizu Systems')]),
  q('h04', 'change', 'When did I stop playing guitar?', [old('me', 'hobby', 'guitar')]),
  q('h05', 'change', 'When did Aiko and I get engaged?', [old('me', 'relationship_status', 'engaged to Aiko')]),
  q('h06', 'change', 'When did we get married?', [cur('me', 'relationship_status', 'married to Aiko')]),
  q('h07', 'change', 'When was I promoted?', [old('me', 'job_title', 'senior backend engineer')]),
  q('h08', 'change', 'When did I get Kuro?', [cur('me', 'has_pet', 'Kuro')]),
  q('h09', 'change', 'When did we adopt Mochi?', [cur('me', 'has_pet', 'Mochi')]),
  q('h10', 'change', 'When did my hamster die?', [old('me', 'has_pet', 'Pico')]),
  q('h11', 'change', 'When did I break my wrist?', [old('me', 'injury', 'broken left wrist')]),
  q('h12', 'change', 'How long did I go to calligraphy class?', [old('me', 'hobby', 'calligraphy')]),
  q('h13', 'change', 'When did Ryo move to Berlin?', [cur('Ryo', 'lives_in', 'Berlin')]),
  q('h14', 'change', 'When did Aiko change jobs?', [cur('Aiko', 'works_at', 'Osaka University Hospital')]),
  q('h15', 'change', 'When did Tanaka move to the Nagoya office?', [cur('Tanaka', 'works_in', 'Nagoya office')]),
  q('h16', 'change', 'When did I stop being vegetarian?', [old('me', 'diet', 'vegetarian')]),
  q('h17', 'change', 'How has my job title changed over time?', [old('me', 'job_title', 'backend engineer'), old('me', 'job_title', 'senior backend engineer'), cur('me', 'job_title', 'engineering lead')]),
  q('h18', 'change', 'Who were all my managers?', [old('me', 'manager', 'Tanaka'), old('me', 'manager', 'Sato'), cur('me', 'manager', 'Yamamoto')]),
  q('h19', 'change', 'When did Emma move to Kobe?', [cur('Emma', 'lives_in', 'Kobe')]),
  q('h20', 'change', 'Do I still play guitar?', [old('me', 'hobby', 'guitar')]),
  q('h21', 'change', 'When did I switch phones?', [cur('me', 'phone', 'Pixel 9')]),
  q('h22', 'change', 'When did I get the new half marathon personal best?', [cur('me', 'half_marathon_best', '1:47')]),

  // ---- japanese ----
  q('j01', 'japanese', '以前はどこに住んでいましたか', [old('me', 'lives_in', 'Tokyo')]),
  q('j02', 'japanese', '今どこに住んでいますか', [cur('me', 'lives_in', 'Osaka')], { tags: XL }),
  q('j03', 'japanese', '母はどこに住んでいますか', [cur('Keiko', 'lives_in', 'Sapporo')]),
  q('j04', 'japanese', '父は以前何の仕事をしていましたか', [old('Hiroshi', 'occupation', 'high school math teacher')]),
  q('j05', 'japanese', '妹はどこの大学に通っていましたか', [old('Yui', 'studies_at', 'Waseda University')]),
  q('j06', 'japanese', '兄の息子の名前は？', [cur('Daichi', 'child', 'Sota')]),
  q('j07', 'japanese', '書道はいつやめましたか', [old('me', 'hobby', 'calligraphy')]),
  q('j08', 'japanese', 'いつ大阪に引っ越しましたか', [cur('me', 'lives_in', 'Osaka')], { tags: XL }),
  q('j09', 'japanese', '今の上司は誰ですか', [cur('me', 'manager', 'Yamamoto')], { tags: XL }),
  q('j10', 'japanese', '山本さんの趣味は何ですか', [cur('Yamamoto', 'hobby', 'fishing')]),
  q('j11', 'japanese', '一番好きな食べ物は何ですか', [cur('me', 'favorite_food', 'okonomiyaki')]),
  q('j12', 'japanese', '前は何が一番好きな食べ物でしたか', [old('me', 'favorite_food', 'ramen')]),
  q('j13', 'japanese', '毎朝何を飲んでいますか', [cur('me', 'favorite_drink', 'hojicha')]),
  q('j14', 'japanese', 'コーヒーはいつやめましたか', [cur('me', 'favorite_drink', 'hojicha')]),
  q('j15', 'japanese', 'モチは何の薬を飲んでいますか', [cur('Mochi', 'medication', 'kidney medicine')]),
  q('j16', 'japanese', '兄は今どこに住んでいますか', [cur('Daichi', 'lives_in', 'Singapore')]),
  q('j17', 'japanese', 'スペイン語の勉強はまだ続けていますか', [old('me', 'hobby', 'Spanish')]),
  q('j18', 'japanese', '愛子の仕事は何ですか', [cur('Aiko', 'occupation', 'nurse')], { tags: XL }),
  q('j19', 'japanese', '結衣はどこで働いていますか', [cur('Yui', 'works_at', 'Sakura Advertising')]),
  q('j20', 'japanese', '西田さんについて教えて', [cur('me', 'coworker', 'Nishida'), cur('Nishida', 'hobby', 'baking')]),
  q('j21', 'japanese', '甥は最近何ができるようになりましたか', [cur('Sota', 'milestone', 'started walking')]),
  q('j22', 'japanese', '清水システムズのオフィスはどこですか', [cur('Kiyomizu Systems', 'office_in', 'Umeda')]),
  q('j23', 'japanese', '母の趣味は何ですか', [cur('Keiko', 'hobby', 'gardening')]),

  // ---- entity ----
  q('e01', 'entity', 'What do you know about Sato?', [cur('Sato', 'hometown', 'Sendai'), cur('Sato', 'hobby', 'golf'), cur('Sato', 'reports_to', 'Kobayashi'), cur('Sato', 'lives_in', 'Kawasaki')]),
  q('e02', 'entity', 'Tell me about Yamamoto.', [cur('me', 'manager', 'Yamamoto'), cur('Yamamoto', 'hobby', 'fishing'), cur('Yamamoto', 'hometown', 'Kobe'), cur('Yamamoto', 'reports_to', 'Fujii')]),
  q('e03', 'entity', 'What do you know about Mochi?', [cur('me', 'has_pet', 'Mochi'), cur('Mochi', 'species', 'calico cat'), cur('Mochi', 'vet', 'Dr. Ito'), cur('Mochi', 'medication', 'kidney medicine')]),
  q('e04', 'entity', 'Who is Emma?', [cur('me', 'friend', 'Emma'), cur('Emma', 'occupation', 'English teacher'), cur('Emma', 'lives_in', 'Kobe'), cur('Emma', 'has_pet', 'Biscuit')]),
  q('e05', 'entity', 'Tell me about Kiyomizu Systems.', [cur('me', 'works_at', 'Kiyomizu Systems'), cur('me', 'accepted_offer', 'Kiyomizu Systems'), cur('Kiyomizu Systems', 'office_in', 'Umeda'), cur('Kiyomizu Systems', 'founded', '2012 in Kyoto')]),
  q('e06', 'entity', 'What do you know about Tanaka?', [cur('Tanaka', 'has_pet', 'Tora'), cur('Tanaka', 'works_in', 'Nagoya office'), cur('Tanaka', 'hobby', 'bass guitar')]),
  q('e07', 'entity', 'Who is Kobayashi?', [cur('Kobayashi', 'role', 'CTO'), cur('Sato', 'reports_to', 'Kobayashi')]),
  q('e08', 'entity', 'What breed is Kuro?', [cur('Kuro', 'breed', 'Shiba Inu')]),
  q('e09', 'entity', 'What is Aiko allergic to?', [cur('Aiko', 'allergic_to', 'shellfish')]),
  q('e10', 'entity', "When is Aiko's birthday?", [cur('Aiko', 'birthday', 'November 2')]),
  q('e11', 'entity', 'Tell me about Ryo.', [cur('me', 'friend', 'Ryo'), cur('Ryo', 'occupation', 'architect'), cur('Ryo', 'lives_in', 'Berlin'), cur('Ryo', 'hobby', 'marathon running')]),
  q('e12', 'entity', 'What do you know about my sister Yui?', [cur('me', 'sister', 'Yui'), cur('Yui', 'part_time_job', 'cafe'), cur('Yui', 'lives_in', 'Tokyo'), cur('Yui', 'favorite_food', 'pancakes'), cur('Yui', 'works_at', 'Sakura Advertising')]),
  q('e13', 'entity', 'Who is Suzuki?', [cur('me', 'coworker', 'Suzuki'), cur('Suzuki', 'likes', 'curry'), cur('Suzuki', 'visited', 'Osaka')]),
  q('e14', 'entity', 'Who is Dr. Ito?', [cur('Mochi', 'vet', 'Dr. Ito')]),
  q('e15', 'entity', 'Tell me about Hoshino Robotics.', [cur('Hoshino Robotics', 'headquarters_in', 'Shibuya'), cur('Hoshino Robotics', 'has_office_in', 'Osaka'), cur('Kobayashi', 'role', 'CTO')]),
  q('e16', 'entity', 'What do you know about Daichi?', [cur('me', 'brother', 'Daichi'), cur('Daichi', 'lives_in', 'Singapore'), cur('Daichi', 'child', 'Sota')]),

  // ---- paraphrase ----
  q('a01', 'paraphrase', "Who's my boss?", [cur('me', 'manager', 'Yamamoto')]),
  q('a02', 'paraphrase', 'Which city is home for me these days?', [cur('me', 'lives_in', 'Osaka')]),
  q('a03', 'paraphrase', 'Who is my employer?', [cur('me', 'works_at', 'Kiyomizu Systems')]),
  q('a04', 'paraphrase', 'How do I get to the office?', [cur('me', 'commute', 'bicycle')]),
  q('a05', 'paraphrase', 'Do I have a dog?', [cur('me', 'has_pet', 'Kuro')]),
  q('a06', 'paraphrase', 'What instrument did I learn?', [old('me', 'hobby', 'guitar')]),
  q('a07', 'paraphrase', 'Who is my partner?', [cur('me', 'spouse', 'Aiko'), cur('me', 'relationship_status', 'married to Aiko')]),
  q('a08', 'paraphrase', 'What sports do I do for exercise?', [cur('me', 'hobby', 'running'), cur('me', 'hobby', 'bouldering')]),
  q('a09', 'paraphrase', "What's my go-to dish these days?", [cur('me', 'favorite_food', 'okonomiyaki')], { tags: XL }),
  q('a10', 'paraphrase', 'What did I study at college?', [cur('me', 'graduated_from', 'Tohoku University')]),
  q('a11', 'paraphrase', 'Who treats me when I get sick?', [cur('me', 'doctor', 'Dr. Okada')]),
  q('a12', 'paraphrase', 'What day was I born?', [cur('me', 'birthday', 'March 14')]),
  q('a13', 'paraphrase', 'Which novel is on my nightstand right now?', [cur('me', 'reading', 'Project Hail Mary')]),
  q('a14', 'paraphrase', 'Have I been hurt before?', [old('me', 'injury', 'broken left wrist')]),
  q('a15', 'paraphrase', 'What does my wife do for a living?', [cur('Aiko', 'occupation', 'nurse'), cur('Aiko', 'works_at', 'Osaka University Hospital')]),
  q('a16', 'paraphrase', 'What mobile do I carry?', [cur('me', 'phone', 'Pixel 9')]),
  q('a17', 'paraphrase', 'Which language did I give up learning?', [old('me', 'hobby', 'Spanish')], { tags: XL }),
  q('a18', 'paraphrase', "Who looks after my pets' health?", [cur('Mochi', 'vet', 'Dr. Ito')]),
  q('a19', 'paraphrase', 'What do I refuse to eat?', [cur('me', 'dislikes', 'natto')], { tags: XL }),
  q('a20', 'paraphrase', 'What makes me sneeze in spring?', [cur('me', 'allergic_to', 'cedar pollen')], { tags: XL }),
];

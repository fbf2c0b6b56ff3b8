/**
 * The retrieval evaluation's fixture: one user's life (Kenji Mori) told over ~1.5 years
 * (May 2025 – Nov 2026) in 25 sessions, some in English and some in Japanese, as structured
 * observations — what the extraction step would produce from each message. It is built through
 * `memory.observe`, session by session in time order, so the temporal rules (not this file) close
 * the facts that changed: manager Tanaka → Sato → Yamamoto, Tokyo → Osaka, Hoshino Robotics →
 * Kiyomizu Systems, dating → engaged → married, hobbies started and stopped with explicit ends,
 * pets, favourite foods, family members and friends with facts of their own, and distractors that
 * share words with the answers (other people's managers, cats, guitars, moves, favourite foods).
 *
 * Object names are canonical (English) entity names even where the sentence is Japanese, as entity
 * resolution would keep them; the Japanese names are added as aliases (see ENTITY_ALIASES).
 */
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { storeOf } from '../../electron/memory/memory';

export interface FixtureObservation {
  subject: string;
  predicate: string;
  object: string;
  object_type?: 'entity' | 'literal';
  fact: string;
  cardinality: 'one' | 'many';
  valid_at?: string;
  invalid_at?: string;
}

export interface FixtureSession {
  id: string;
  title: string;
  lang: 'en' | 'ja';
  /** When the session took place (JST); observation i is said i minutes later. */
  at: string;
  observations: FixtureObservation[];
}

/** "Now" for the evaluation: after the last session, so every fact's valid time is in the past. */
export const EVAL_NOW = '2026-11-30T00:00:00.000Z';

type Opts = Partial<Pick<FixtureObservation, 'valid_at' | 'invalid_at'>>;
/** A one-cardinality fact whose object is an entity. */
const one = (subject: string, predicate: string, object: string, fact: string, opts: Opts = {}): FixtureObservation => ({ subject, predicate, object, fact, cardinality: 'one', ...opts });
/** A many-cardinality fact whose object is an entity. */
const many = (subject: string, predicate: string, object: string, fact: string, opts: Opts = {}): FixtureObservation => ({ subject, predicate, object, fact, cardinality: 'many', ...opts });
/** A one-cardinality fact whose object is a plain value. */
const oneLit = (subject: string, predicate: string, object: string, fact: string, opts: Opts = {}): FixtureObservation => ({ ...one(subject, predicate, object, fact, opts), object_type: 'literal' });
/** A many-cardinality fact whose object is a plain value. */
const manyLit = (subject: string, predicate: string, object: string, fact: string, opts: Opts = {}): FixtureObservation => ({ ...many(subject, predicate, object, fact, opts), object_type: 'literal' });

export const FIXTURE_SESSIONS: FixtureSession[] = [
  {
    id: 's01', title: 'Introductions', lang: 'en', at: '2025-05-03T21:00:00+09:00',
    observations: [
      oneLit('me', 'name', 'Kenji Mori', 'My name is Kenji Mori.'),
      oneLit('me', 'birthday', 'March 14', 'My birthday is March 14.'),
      one('me', 'works_at', 'Hoshino Robotics', 'I work at Hoshino Robotics as a software engineer.', { valid_at: '2023-04-01' }),
      oneLit('me', 'job_title', 'backend engineer', 'My job title is backend engineer.', { valid_at: '2023-04-01' }),
      one('me', 'manager', 'Tanaka', 'My manager is Tanaka.', { valid_at: '2024-10-01' }),
      oneLit('me', 'team', 'payments team', "I'm on the payments team.", { valid_at: '2024-10-01' }),
      oneLit('me', 'relationship_status', 'dating Aiko', "I'm dating Aiko; we've been together for two years.", { valid_at: '2023-05-01' }),
      many('me', 'has_pet', 'Pico', 'I have a hamster named Pico.', { valid_at: '2024-12-01' }),
      one('me', 'owns_car', 'Toyota Prius', 'I drive a grey Toyota Prius.'),
      many('me', 'hobby', 'running', 'I go running along the Tama River every weekend.'),
      many('me', 'graduated_from', 'Tohoku University', 'I graduated from Tohoku University in 2019 with a degree in mechanical engineering.'),
      manyLit('me', 'speaks', 'Japanese and English', 'I speak Japanese and English.'),
    ],
  },
  {
    id: 's02', title: '自己紹介のつづき', lang: 'ja', at: '2025-05-18T21:00:00+09:00',
    observations: [
      one('me', 'lives_in', 'Tokyo', '東京の世田谷区に住んでいます。', { valid_at: '2021-04-01' }),
      one('me', 'hometown', 'Sendai', '出身は仙台です。'),
      one('me', 'mother', 'Keiko', '母の名前は恵子です。'),
      one('Keiko', 'lives_in', 'Sapporo', '母は札幌に住んでいます。'),
      one('me', 'father', 'Hiroshi', '父の名前は博です。'),
      oneLit('Hiroshi', 'occupation', 'high school math teacher', '父は高校の数学の先生です。'),
      many('me', 'sister', 'Yui', '妹の名前は結衣です。'),
      one('Yui', 'studies_at', 'Waseda University', '妹の結衣は早稲田大学の学生です。'),
      one('Yui', 'lives_in', 'Tokyo', '妹の結衣は東京の中野に住んでいます。'),
      many('me', 'dislikes', 'natto', '納豆は苦手です。'),
      one('me', 'favorite_food', 'ramen', '一番好きな食べ物はラーメンです。'),
      many('me', 'allergic_to', 'cedar pollen', 'スギ花粉症です。'),
    ],
  },
  {
    id: 's03', title: 'Weekend plans', lang: 'en', at: '2025-06-07T21:00:00+09:00',
    observations: [
      many('me', 'has_pet', 'Mochi', 'We adopted a calico cat named Mochi last Sunday.', { valid_at: '2025-06-01' }),
      oneLit('Mochi', 'species', 'calico cat', 'Mochi is a calico cat, about one year old.'),
      many('me', 'hobby', 'guitar', 'I started taking guitar lessons this week.', { valid_at: '2025-06-05' }),
      many('Tanaka', 'has_pet', 'Tora', 'Tanaka has a cat named Tora.'),
      one('me', 'favorite_restaurant', 'Ichiran Shibuya', 'My favourite restaurant is Ichiran in Shibuya.'),
      one('me', 'gym', "Gold's Gym Shibuya", "I'm a member of Gold's Gym in Shibuya."),
      many('me', 'friend', 'Ryo', 'Ryo is my best friend from university.'),
      one('Ryo', 'lives_in', 'Tokyo', 'Ryo lives in Kichijoji, Tokyo.'),
      oneLit('Ryo', 'occupation', 'architect', 'Ryo works as an architect.'),
    ],
  },
  {
    id: 's04', title: '仕事の話', lang: 'ja', at: '2025-06-28T21:00:00+09:00',
    observations: [
      oneLit('me', 'commute', 'train', '毎日電車で通勤しています。田園都市線です。'),
      manyLit('me', 'works_from_home', 'Fridays', '金曜日は在宅勤務です。'),
      many('me', 'coworker', 'Suzuki', '同僚の鈴木さんとよくランチに行きます。'),
      many('Suzuki', 'likes', 'curry', '鈴木さんはカレーが大好きです。'),
      oneLit('me', 'works_on', 'delivery robot billing system', '今は配送ロボットの課金システムを担当しています。'),
      one('Hoshino Robotics', 'headquarters_in', 'Shibuya', '星野ロボティクスの本社は渋谷にあります。'),
      one('me', 'phone', 'iPhone 14', 'スマホはiPhone 14を使っています。'),
    ],
  },
  {
    id: 's05', title: 'Kyoto trip', lang: 'en', at: '2025-07-20T21:00:00+09:00',
    observations: [
      many('me', 'visited', 'Kyoto', 'Aiko and I spent a weekend in Kyoto and visited Fushimi Inari.', { valid_at: '2025-07-19' }),
      one('me', 'reading', 'Norwegian Wood', "I'm reading Norwegian Wood by Haruki Murakami."),
      oneLit('Aiko', 'occupation', 'nurse', 'Aiko works as a nurse.'),
      one('Aiko', 'works_at', "St. Luke's Hospital", "Aiko works at St. Luke's Hospital in Tokyo."),
      one('Aiko', 'lives_in', 'Tokyo', 'Aiko lives in Meguro, Tokyo.'),
      oneLit('Aiko', 'birthday', 'November 2', "Aiko's birthday is November 2."),
      many('Aiko', 'allergic_to', 'shellfish', 'Aiko is allergic to shellfish.'),
      one('Aiko', 'favorite_food', 'sushi', "Aiko's favourite food is sushi."),
      oneLit('Aiko', 'full_name', 'Aiko Hayashi', "Aiko's full name is Aiko Hayashi."),
    ],
  },
  {
    id: 's06', title: 'お盆休み', lang: 'ja', at: '2025-08-16T21:00:00+09:00',
    observations: [
      many('me', 'visited', 'Sapporo', 'お盆に札幌の実家に帰省しました。', { valid_at: '2025-08-13' }),
      many('me', 'brother', 'Daichi', '兄の名前は大地です。'),
      one('Daichi', 'lives_in', 'Fukuoka', '兄の大地は福岡に住んでいます。'),
      many('Daichi', 'child', 'Sota', '8月2日に兄の息子、蒼太が生まれました。', { valid_at: '2025-08-02' }),
      many('me', 'hobby', 'Spanish', 'スペイン語の勉強を始めました。', { valid_at: '2025-08-10' }),
      many('Keiko', 'hobby', 'gardening', '母は庭でトマトを育てるのが趣味です。'),
      many('Hiroshi', 'hobby', 'guitar', '父は若い頃フォークバンドでギターを弾いていました。'),
    ],
  },
  {
    id: 's07', title: 'New manager', lang: 'en', at: '2025-09-16T21:00:00+09:00',
    observations: [
      one('me', 'manager', 'Sato', 'My manager changed to Sato yesterday.', { valid_at: '2025-09-15' }),
      one('Tanaka', 'works_in', 'Nagoya office', 'Tanaka transferred to the Nagoya office.', { valid_at: '2025-09-15' }),
      one('Sato', 'hometown', 'Sendai', 'Sato is from Sendai, like me.'),
      many('Sato', 'hobby', 'golf', 'Sato plays golf every Sunday.'),
      one('Sato', 'reports_to', 'Kobayashi', 'Sato reports to Kobayashi.'),
      oneLit('Kobayashi', 'role', 'CTO', 'Kobayashi is the CTO of Hoshino Robotics.'),
      many('Tanaka', 'hobby', 'bass guitar', 'Tanaka plays bass guitar in a jazz band.'),
    ],
  },
  {
    id: 's08', title: '書道', lang: 'ja', at: '2025-09-27T21:00:00+09:00',
    observations: [
      many('me', 'hobby', 'calligraphy', '近所の書道教室に通い始めました。', { valid_at: '2025-09-20' }),
      one('me', 'reading', 'The Three-Body Problem', '今は『三体』を読んでいます。', { valid_at: '2025-09-25' }),
      oneLit('Yui', 'part_time_job', 'cafe', '結衣は週末にカフェでアルバイトをしています。'),
      one('Yui', 'favorite_food', 'pancakes', '結衣の好物はパンケーキです。'),
    ],
  },
  {
    id: 's09', title: 'Promotion', lang: 'en', at: '2025-10-05T21:00:00+09:00',
    observations: [
      oneLit('me', 'job_title', 'senior backend engineer', 'I was promoted to senior backend engineer on October 1.', { valid_at: '2025-10-01' }),
      many('me', 'plays_game', 'Elden Ring', "I'm playing Elden Ring in the evenings.", { valid_at: '2025-10-04' }),
      many('Ryo', 'hobby', 'marathon running', 'Ryo started training for marathons too.'),
      many('me', 'friend', 'Emma', 'Emma is a friend from Canada I met at an English conversation meetup.'),
      oneLit('Emma', 'occupation', 'English teacher', 'Emma teaches English at a high school.'),
      one('Emma', 'lives_in', 'Yokohama', 'Emma lives in Yokohama.'),
      many('Emma', 'has_pet', 'Biscuit', 'Emma has a rabbit named Biscuit.'),
      one('Sato', 'lives_in', 'Kawasaki', 'Sato moved to a new apartment in Kawasaki.', { valid_at: '2025-10-01' }),
    ],
  },
  {
    id: 's10', title: 'ピコのこと', lang: 'ja', at: '2025-11-10T21:00:00+09:00',
    observations: [
      many('me', 'has_pet', 'Pico', 'ハムスターのピコが11月8日に死んでしまいました。', { valid_at: '2024-12-01', invalid_at: '2025-11-08' }),
      many('Aiko', 'likes', 'matcha sweets', '愛子は抹茶スイーツが大好きです。'),
      one('me', 'favorite_drink', 'oat milk latte', '毎朝オーツミルクラテを飲んでいます。'),
    ],
  },
  {
    id: 's11', title: 'Half marathon', lang: 'en', at: '2025-11-17T21:00:00+09:00',
    observations: [
      many('me', 'completed', 'Yokohama Half Marathon', 'I ran the Yokohama Half Marathon yesterday.', { valid_at: '2025-11-16' }),
      oneLit('me', 'half_marathon_best', '1:52', 'My half marathon personal best is 1 hour 52 minutes.', { valid_at: '2025-11-16' }),
    ],
  },
  {
    id: 's12', title: 'Wrist', lang: 'en', at: '2025-12-10T21:00:00+09:00',
    observations: [
      oneLit('me', 'injury', 'broken left wrist', 'I broke my left wrist falling off my bike; the cast comes off at the end of January.', { valid_at: '2025-12-06', invalid_at: '2026-01-31' }),
      one('me', 'doctor', 'Dr. Nakamura', 'My doctor is Dr. Nakamura at Setagaya Orthopedic Clinic.'),
    ],
  },
  {
    id: 's13', title: 'Engaged', lang: 'en', at: '2025-12-25T21:00:00+09:00',
    observations: [
      oneLit('me', 'relationship_status', 'engaged to Aiko', 'Aiko and I got engaged on Christmas Eve!', { valid_at: '2025-12-24' }),
      many('me', 'plays_game', 'Elden Ring', 'I finished Elden Ring last weekend, so I stopped playing it.', { valid_at: '2025-10-04', invalid_at: '2025-12-20' }),
      many('me', 'accepted_offer', 'Kiyomizu Systems', 'I accepted a job offer from Kiyomizu Systems; I start there in February.', { valid_at: '2025-12-18' }),
    ],
  },
  {
    id: 's14', title: '引っ越し準備', lang: 'ja', at: '2026-01-12T21:00:00+09:00',
    observations: [
      many('me', 'hobby', 'calligraphy', '引っ越しのため、書道教室は1月10日でやめました。', { valid_at: '2025-09-20', invalid_at: '2026-01-10' }),
      many('me', 'hobby', 'guitar', '手首のけがでギターはやめました。', { valid_at: '2025-06-05', invalid_at: '2026-01-05' }),
      one('me', 'owns_car', 'Toyota Prius', 'プリウスは1月11日に売りました。大阪では車はいりません。', { valid_at: '2025-05-03T21:08:00+09:00', invalid_at: '2026-01-11' }),
      oneLit('me', 'diet', 'vegetarian', '新年からベジタリアンになりました。', { valid_at: '2026-01-01' }),
      one('me', 'gym', "Gold's Gym Shibuya", 'ゴールドジムは1月末で退会します。', { valid_at: '2025-06-07T21:05:00+09:00', invalid_at: '2026-01-31' }),
    ],
  },
  {
    id: 's15', title: 'Moved to Osaka', lang: 'en', at: '2026-02-10T21:00:00+09:00',
    observations: [
      one('me', 'lives_in', 'Osaka', 'I moved to Osaka on February 1; our apartment is in Kita-ku.', { valid_at: '2026-02-01' }),
      one('me', 'works_at', 'Kiyomizu Systems', 'I started working at Kiyomizu Systems on February 1.', { valid_at: '2026-02-01' }),
      oneLit('me', 'job_title', 'engineering lead', 'At Kiyomizu Systems my title is engineering lead.', { valid_at: '2026-02-01' }),
      oneLit('me', 'team', 'platform team', 'I lead the platform team.', { valid_at: '2026-02-01' }),
      one('me', 'manager', 'Yamamoto', 'My new manager at Kiyomizu is Yamamoto.', { valid_at: '2026-02-01' }),
      oneLit('me', 'commute', 'bicycle', 'Now I commute by bicycle; it takes 15 minutes.', { valid_at: '2026-02-01' }),
      one('Aiko', 'lives_in', 'Osaka', 'Aiko moved to Osaka with me.', { valid_at: '2026-02-01' }),
      manyLit('me', 'works_from_home', 'Fridays', 'There is no working from home at Kiyomizu; I go to the office every day.', { valid_at: '2025-06-28T21:01:00+09:00', invalid_at: '2026-02-01' }),
      one('Hoshino Robotics', 'has_office_in', 'Osaka', 'Hoshino Robotics is opening an Osaka office in March.', { valid_at: '2026-03-01' }),
    ],
  },
  {
    id: 's16', title: '新しい職場', lang: 'ja', at: '2026-02-20T21:00:00+09:00',
    observations: [
      many('Yamamoto', 'hobby', 'fishing', '山本さんは釣りが趣味で、毎週末淡路島に行きます。'),
      one('Yamamoto', 'hometown', 'Kobe', '山本さんは神戸出身です。'),
      one('Yamamoto', 'reports_to', 'Fujii', '山本さんの上司は藤井さんです。'),
      many('me', 'coworker', 'Nishida', '隣の席の西田さんはとても親切です。'),
      one('Kiyomizu Systems', 'office_in', 'Umeda', '清水システムズのオフィスは梅田にあります。'),
      oneLit('Kiyomizu Systems', 'founded', '2012 in Kyoto', '清水システムズは2012年に京都で創業しました。'),
    ],
  },
  {
    id: 's17', title: "Aiko's new job", lang: 'en', at: '2026-03-08T21:00:00+09:00',
    observations: [
      one('Aiko', 'works_at', 'Osaka University Hospital', 'Aiko started at Osaka University Hospital on March 1.', { valid_at: '2026-03-01' }),
      many('me', 'hobby', 'bouldering', "I tried bouldering at a gym in Namba and I'm hooked.", { valid_at: '2026-03-07' }),
      one('me', 'doctor', 'Dr. Okada', 'My new doctor in Osaka is Dr. Okada.', { valid_at: '2026-03-05' }),
      oneLit('Hiroshi', 'occupation', 'retired', 'My father retires from teaching at the end of March.', { valid_at: '2026-03-31' }),
    ],
  },
  {
    id: 's18', title: '食べ物', lang: 'ja', at: '2026-04-12T21:00:00+09:00',
    observations: [
      one('me', 'favorite_food', 'okonomiyaki', '大阪に来てから、一番好きな食べ物はお好み焼きになりました。', { valid_at: '2026-04-10' }),
      one('me', 'favorite_restaurant', 'Mizuno', '行きつけの店は道頓堀のお好み焼き屋「美津の」です。', { valid_at: '2026-04-10' }),
      many('me', 'hobby', 'Spanish', 'スペイン語の勉強は4月にやめました。', { valid_at: '2025-08-10', invalid_at: '2026-04-01' }),
      one('Ryo', 'lives_in', 'Berlin', '親友の亮がベルリンに引っ越しました。', { valid_at: '2026-04-01' }),
      one('Yui', 'works_at', 'Sakura Advertising', '結衣は4月からさくら広告で働いています。', { valid_at: '2026-04-01' }),
      one('Yui', 'studies_at', 'Waseda University', '結衣は3月に早稲田大学を卒業しました。', { valid_at: '2025-05-18T21:07:00+09:00', invalid_at: '2026-03-20' }),
    ],
  },
  {
    id: 's19', title: 'Puppy', lang: 'en', at: '2026-05-06T21:00:00+09:00',
    observations: [
      many('me', 'has_pet', 'Kuro', 'We got a black Shiba Inu puppy named Kuro on May 3.', { valid_at: '2026-05-03' }),
      oneLit('Kuro', 'breed', 'Shiba Inu', 'Kuro is a Shiba Inu.'),
      one('Mochi', 'vet', 'Dr. Ito', "Mochi and Kuro go to Dr. Ito's animal clinic in Kita-ku."),
      many('me', 'course', 'machine learning course', 'I started an online machine learning course on Coursera.', { valid_at: '2026-05-01' }),
      one('Emma', 'lives_in', 'Kobe', 'Emma moved to Kobe to teach at an international school.', { valid_at: '2026-04-20' }),
      many('Hiroshi', 'hobby', 'go', '父は退職してから囲碁を始めました。', { valid_at: '2026-05-01' }),
    ],
  },
  {
    id: 's20', title: 'Wedding', lang: 'en', at: '2026-06-22T21:00:00+09:00',
    observations: [
      oneLit('me', 'relationship_status', 'married to Aiko', 'Aiko and I got married on June 20 at a small shrine in Kyoto.', { valid_at: '2026-06-20' }),
      oneLit('me', 'diet', 'vegetarian', 'I stopped being vegetarian in June; too hard with all the wedding dinners.', { valid_at: '2026-01-01', invalid_at: '2026-06-01' }),
      oneLit('Aiko', 'full_name', 'Aiko Mori', "Aiko took my surname; she's Aiko Mori now.", { valid_at: '2026-06-20' }),
      one('me', 'spouse', 'Aiko', 'Aiko is my wife.', { valid_at: '2026-06-20' }),
    ],
  },
  {
    id: 's21', title: '新婚旅行', lang: 'ja', at: '2026-07-15T21:00:00+09:00',
    observations: [
      many('me', 'visited', 'Lisbon', '新婚旅行でリスボンとポルトに行きました。', { valid_at: '2026-07-02' }),
      many('me', 'hobby', 'pottery', '陶芸教室に通い始めました。', { valid_at: '2026-07-12' }),
      many('Keiko', 'visited', 'Osaka', '母が7月に大阪へ遊びに来ました。', { valid_at: '2026-07-05' }),
    ],
  },
  {
    id: 's22', title: 'New phone', lang: 'en', at: '2026-08-09T21:00:00+09:00',
    observations: [
      one('me', 'phone', 'Pixel 9', 'I switched from my iPhone to a Pixel 9.', { valid_at: '2026-08-08' }),
      one('me', 'reading', 'Project Hail Mary', 'Currently reading Project Hail Mary by Andy Weir.', { valid_at: '2026-08-01' }),
      many('Suzuki', 'visited', 'Osaka', 'Suzuki from my old job visited Osaka and we had takoyaki.', { valid_at: '2026-08-08' }),
    ],
  },
  {
    id: 's23', title: 'コーヒー', lang: 'ja', at: '2026-09-14T21:00:00+09:00',
    observations: [
      one('me', 'favorite_drink', 'hojicha', '9月からコーヒーをやめて、毎朝ほうじ茶を飲んでいます。', { valid_at: '2026-09-01' }),
      one('Daichi', 'lives_in', 'Singapore', '兄の大地は10月からシンガポールに転勤します。', { valid_at: '2026-10-01' }),
      many('Sota', 'milestone', 'started walking', '甥の蒼太が歩き始めました。', { valid_at: '2026-09-10' }),
    ],
  },
  {
    id: 's24', title: 'Osaka half', lang: 'en', at: '2026-10-20T21:00:00+09:00',
    observations: [
      many('me', 'completed', 'Osaka Half Marathon', 'I ran the Osaka Half Marathon on Sunday.', { valid_at: '2026-10-18' }),
      oneLit('me', 'half_marathon_best', '1:47', 'New half marathon personal best: 1 hour 47 minutes.', { valid_at: '2026-10-18' }),
      oneLit('me', 'team_size', 'five engineers', 'My team has five engineers now.'),
      many('Aiko', 'hobby', 'yoga', 'Aiko has been doing yoga twice a week.', { valid_at: '2026-10-01' }),
    ],
  },
  {
    id: 's25', title: '最近', lang: 'ja', at: '2026-11-15T21:00:00+09:00',
    observations: [
      many('me', 'plans', 'New Zealand trip', '来年3月にニュージーランド旅行を計画しています。'),
      manyLit('Mochi', 'medication', 'kidney medicine', 'モチは毎日腎臓の薬を飲んでいます。', { valid_at: '2026-11-01' }),
      many('Nishida', 'hobby', 'baking', '西田さんはパン作りが得意で、よく職場に持ってきます。'),
      oneLit('me', 'sleep', 'eleven', '最近は毎晩11時に寝るようにしています。'),
    ],
  },
];

/**
 * Names the extraction would have recorded as aliases of the canonical entities (a Japanese
 * sentence names 山本さん; the entity is Yamamoto).
 */
export const ENTITY_ALIASES: Record<string, string[]> = {
  Tokyo: ['東京'],
  Osaka: ['大阪'],
  Sendai: ['仙台'],
  Sapporo: ['札幌'],
  Kyoto: ['京都'],
  Keiko: ['恵子', '母'],
  Hiroshi: ['博', '父'],
  Yui: ['結衣'],
  Daichi: ['大地'],
  Sota: ['蒼太'],
  Aiko: ['愛子'],
  Tanaka: ['田中', '田中さん'],
  Sato: ['佐藤', '佐藤さん'],
  Yamamoto: ['山本', '山本さん'],
  Suzuki: ['鈴木', '鈴木さん'],
  Nishida: ['西田', '西田さん'],
  Ryo: ['亮'],
  Mochi: ['モチ'],
  Pico: ['ピコ'],
  Kuro: ['クロ'],
  'Hoshino Robotics': ['星野ロボティクス'],
  'Kiyomizu Systems': ['清水システムズ'],
};

/** Every observation with its session's conversation and reference time filled in. */
export function fixtureObservations(session: FixtureSession): Record<string, unknown>[] {
  const start = Date.parse(session.at);
  return session.observations.map((o, i) => ({
    ...o,
    object_type: o.object_type ?? 'entity',
    reference_time: new Date(start + i * 60_000).toISOString(),
    conversation: session.id,
  }));
}

export function fixtureObservationCount(): number {
  return FIXTURE_SESSIONS.reduce((n, s) => n + s.observations.length, 0);
}

/** Opens an in-memory store at EVAL_NOW and tells it the whole fixture, session by session. */
export function buildEvalMemory(): Memory {
  const memory = openMemory({ dataDir: ':memory:', clock: steppingClock(EVAL_NOW, 1) });
  for (const session of FIXTURE_SESSIONS) {
    memory.facts.observe(fixtureObservations(session), { where: `fixture:${session.id}`, conversation: { id: session.id, title: session.title } });
  }
  for (const [name, aliases] of Object.entries(ENTITY_ALIASES)) {
    const entity = memory.entities.find(name);
    if (!entity) throw new Error(`fixture alias for unknown entity ${JSON.stringify(name)}`);
    for (const alias of aliases) storeOf(memory).entities.addAlias(entity.id, alias);
  }
  return memory;
}

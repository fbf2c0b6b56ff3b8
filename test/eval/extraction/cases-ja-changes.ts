/**
 * Japanese: changes (a later message closes an earlier fact) and corrections (「実は…でした」).
 * The user writes from Tokyo; the first message of each scenario states the fact to change.
 */
import { fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'Asia/Tokyo';
/** 2026年5月10日(日) 09:00 JST: the earlier statement. */
const BEFORE = '2026-05-10T09:00:00+09:00';
/** 2026年9月16日(水) 10:00 JST: the change. */
const NOW = '2026-09-16T10:00:00+09:00';
const S = { category: 'statement' } as const;

function change(id: string, first: string, old: ReturnType<typeof fact>, second: string, next: ReturnType<typeof fact>[], at?: string): ScenarioInput {
  return { id: `ja-change-${id}`, lang: 'ja', category: 'change', zone: ZONE, messages: [user(BEFORE, first, [old], S), user(NOW, second, next, { closes: [{ message: 0, fact: 0, ...(at ? { at } : {}) }] })] };
}

function correction(id: string, first: string, old: ReturnType<typeof fact>, second: string, next: ReturnType<typeof fact>[]): ScenarioInput {
  return { id: `ja-correction-${id}`, lang: 'ja', category: 'correction', zone: ZONE, messages: [user(BEFORE, first, [old], S), user(NOW, second, next, { closes: [{ message: 0, fact: 0 }] })] };
}

const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;

export const JA_CHANGES: ScenarioInput[] = [
  change('moved', '東京に住んでいます。', fact('me', 'lives_in', '東京', '私は東京に住んでいる。', { ...place, objectAliases: ['Tokyo', '東京都'] }),
    '先週、大阪に引っ越しました。', [fact('me', 'lives_in', '大阪', '私は大阪に住んでいる。', { ...place, since: '先週', valid: '2026-09-07', objectAliases: ['Osaka', '大阪市', '大阪府'] })], '2026-09-07'),
  change('manager', '上司はAさんです。', fact('me', 'manager', 'A', '私の上司はAさん。', person),
    '9月15日から上司がBさんに変わりました。', [fact('me', 'manager', 'B', '私の上司はBさん。', { ...person, since: '9月15日', valid: '2026-09-15' })], '2026-09-15'),
  change('new-job', 'トヨタで働いています。', fact('me', 'works_at', 'トヨタ', '私はトヨタで働いている。', { ...org, objectAliases: ['トヨタ自動車', 'Toyota'] }),
    '今月からソニーに転職しました。', [fact('me', 'works_at', 'ソニー', '私はソニーで働いている。', { ...org, since: '今月', valid: '2026-09', objectAliases: ['Sony'] })], '2026-09'),
  change('sister-city', '妹の由美は福岡に住んでいます。', fact('由美', 'lives_in', '福岡', '由美は福岡に住んでいる。', { ...place, subjectAliases: ['妹'] }),
    '由美は8月に札幌へ引っ越しました。', [fact('由美', 'lives_in', '札幌', '由美は札幌に住んでいる。', { ...place, since: '8月', valid: '2026-08', subjectAliases: ['妹'] })], '2026-08'),
  change('piano', '毎週ピアノを習っています。', fact('me', 'learning', 'ピアノ', '私はピアノを習っている。', { predicateAliases: ['practices', 'plays', 'takes_lessons'] }),
    'ピアノはもうやめて、今はギターを習っています。', [
      fact('me', 'learning', 'ピアノ', '私はもうピアノを習っていない。', { valid: 'before', invalid: 'said', until: 'now', predicateAliases: ['practices', 'plays', 'takes_lessons'] }),
      fact('me', 'learning', 'ギター', '私はギターを習っている。', { predicateAliases: ['practices', 'plays', 'takes_lessons'] }),
    ], 'said'),
  change('car', 'プリウスに乗っています。', fact('me', 'drives', 'プリウス', '私はプリウスに乗っている。', { objectType: 'thing', objectAliases: ['Prius'] }),
    '2週間前に車をフィットに買い替えました。', [fact('me', 'drives', 'フィット', '私はフィットに乗っている。', { objectType: 'thing', since: '2週間前', valid: '2026-09-02', objectAliases: ['Fit'], predicateAliases: ['owns'] })], '2026-09-02'),
  change('gym', '駅前のジムに通っています。', fact('me', 'goes_to', '駅前のジム', '私は駅前のジムに通っている。', { objectType: 'place', objectAliases: ['ジム'] }),
    '昨日ジムを退会しました。', [fact('me', 'goes_to', '駅前のジム', '私はもうジムに通っていない。', { objectType: 'place', valid: 'before', invalid: '2026-09-15', until: '昨日', objectAliases: ['ジム'] })], '2026-09-15'),
  change('title', '役職は主任です。', fact('me', 'job_title', '主任', '私の役職は主任。'),
    '今月、課長に昇進しました。', [fact('me', 'job_title', '課長', '私の役職は課長。', { since: '今月', valid: '2026-09' })], '2026-09'),
  change('school', '息子の翔太は桜小学校に通っています。', fact('翔太', 'studies_at', '桜小学校', '翔太は桜小学校に通っている。', { ...org, subjectAliases: ['息子'] }),
    '翔太は今月から緑中学校に通い始めました。', [fact('翔太', 'studies_at', '緑中学校', '翔太は緑中学校に通っている。', { ...org, since: '今月', valid: '2026-09', subjectAliases: ['息子'] })], '2026-09'),
  change('phone', '私の電話番号は090-1234-5678です。', fact('me', 'phone_number', '090-1234-5678', '私の電話番号は090-1234-5678。'),
    '電話番号を変えました。今は080-9876-5432です。', [fact('me', 'phone_number', '080-9876-5432', '私の電話番号は080-9876-5432。')], 'said'),
  change('dentist', '歯医者は山田歯科に行っています。', fact('me', 'dentist', '山田歯科', '私の歯医者は山田歯科。', { ...org, cardinality: 'one', predicateAliases: ['goes_to', 'doctor'] }),
    '3日前から歯医者を佐藤デンタルクリニックに変えました。', [fact('me', 'dentist', '佐藤デンタルクリニック', '私の歯医者は佐藤デンタルクリニック。', { ...org, cardinality: 'one', since: '3日前', valid: '2026-09-13', predicateAliases: ['goes_to', 'doctor'] })], '2026-09-13'),
  change('coffee', '毎朝コーヒーを飲んでいます。', fact('me', 'drinks', 'コーヒー', '私は毎朝コーヒーを飲んでいる。', { objectAliases: ['coffee'] }),
    '先月からコーヒーはやめました。', [fact('me', 'drinks', 'コーヒー', '私はもうコーヒーを飲んでいない。', { valid: 'before', invalid: '2026-08', until: '先月', objectAliases: ['coffee'] })], '2026-08'),
  change('partner', '彼女の名前は美咲です。', fact('me', 'partner', '美咲', '私の彼女は美咲。', person),
    '美咲とは別れて、今は千夏と付き合っています。', [fact('me', 'partner', '千夏', '私は千夏と付き合っている。', person)], 'said'),
  change('team', '会社では営業部に所属しています。', fact('me', 'department', '営業部', '私は営業部に所属している。', { cardinality: 'one', predicateAliases: ['team', 'belongs_to', 'member_of'] }),
    '9月1日付けでマーケティング部に異動になりました。', [fact('me', 'department', 'マーケティング部', '私はマーケティング部に所属している。', { cardinality: 'one', since: '9月1日', valid: '2026-09-01', predicateAliases: ['team', 'belongs_to', 'member_of'] })], '2026-09-01'),
];

export const JA_CORRECTIONS: ScenarioInput[] = [
  correction('manager-name', '上司は田中さんです。', fact('me', 'manager', '田中', '私の上司は田中さん。', person),
    'すみません、間違えました。上司は田中さんではなく中田さんです。', [fact('me', 'manager', '中田', '私の上司は中田さん。', person)]),
  correction('city', '両親は京都に住んでいます。', fact('両親', 'lives_in', '京都', '両親は京都に住んでいる。', place),
    '訂正です。両親が住んでいるのは京都ではなく奈良でした。', [fact('両親', 'lives_in', '奈良', '両親は奈良に住んでいる。', place)]),
  correction('start-date', '4月1日からパナソニックで働いています。', fact('me', 'works_at', 'パナソニック', '私はパナソニックで働いている。', { ...org, since: '4月1日', valid: '2026-04-01' }),
    '実は、パナソニックに入ったのは4月1日ではなく4月15日でした。', [fact('me', 'works_at', 'パナソニック', '私はパナソニックで働いている。', { ...org, since: '4月15日', valid: '2026-04-15' })]),
  correction('employer', '兄の健二は日立に勤めています。', fact('健二', 'works_at', '日立', '健二は日立に勤めている。', { ...org, subjectAliases: ['兄'] }),
    'さっきのは間違いで、健二の勤め先は日立ではなく東芝です。', [fact('健二', 'works_at', '東芝', '健二は東芝に勤めている。', { ...org, subjectAliases: ['兄'] })]),
  correction('pet-name', '飼っている犬の名前はポチです。', fact('me', 'dog_name', 'ポチ', '私の犬の名前はポチ。', { cardinality: 'one', predicateAliases: ['has_dog', 'pet', 'has_pet'] }),
    'ごめんなさい、犬の名前はポチじゃなくてタロウでした。', [fact('me', 'dog_name', 'タロウ', '私の犬の名前はタロウ。', { cardinality: 'one', predicateAliases: ['has_dog', 'pet', 'has_pet'] })]),
  correction('year', '2020年から横浜に住んでいます。', fact('me', 'lives_in', '横浜', '私は横浜に住んでいる。', { ...place, since: '2020年', valid: '2020' }),
    '訂正：横浜に住み始めたのは2020年ではなく2019年です。', [fact('me', 'lives_in', '横浜', '私は横浜に住んでいる。', { ...place, since: '2019年', valid: '2019' })]),
  correction('hobby', '趣味は釣りです。', fact('me', 'hobby', '釣り', '私の趣味は釣り。', { predicateAliases: ['likes', 'enjoys'] }),
    'あ、間違えました。趣味は釣りではなく登山です。', [fact('me', 'hobby', '登山', '私の趣味は登山。', { predicateAliases: ['likes', 'enjoys'] })]),
];

/**
 * Japanese: dates in every form — 「9月1日」「2024年5月10日」, 「昨日」「3日前」「先週」「先月」「去年」,
 * month and year precision, ranges 「…から…まで」, weekdays, 令和. Written on 2026年9月16日(水) in
 * Tokyo (10:00 JST), so 「先週」 is the week of Monday 7 September and 「金曜日」 is the 11th.
 */
import { fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'Asia/Tokyo';
const NOW = '2026-09-16T10:00:00+09:00';
const LATER = '2026-09-16T21:00:00+09:00';
const NEXT_DAY = '2026-09-17T08:00:00+09:00';
const NEXT_DAY_2 = '2026-09-17T12:30:00+09:00';
const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;

function dates(id: string, messages: ReturnType<typeof user>[]): ScenarioInput {
  return { id: `ja-dates-${id}`, lang: 'ja', category: 'dates', zone: ZONE, messages };
}

export const JA_DATES: ScenarioInput[] = [
  dates('relative', [
    user(NOW, '昨日、猫のミケを飼い始めました。', [fact('me', 'has_pet', 'ミケ', '私は猫のミケを飼っている。', { objectType: 'thing', since: '昨日', valid: '2026-09-15', predicateAliases: ['owns', 'keeps', 'pet'] })]),
    user(LATER, '3日前から英会話教室に通っています。', [fact('me', 'goes_to', '英会話教室', '私は英会話教室に通っている。', { ...org, since: '3日前', valid: '2026-09-13', predicateAliases: ['attends', 'studies_at', 'learning'] })]),
    user(NEXT_DAY, '一昨日からジョギングを始めました。', [fact('me', 'does', 'ジョギング', '私はジョギングをしている。', { since: '一昨日', valid: '2026-09-15', predicateAliases: ['runs', 'jogs', 'exercise', 'practices', 'started'] })]),
  ]),
  dates('weeks', [
    user(NOW, '娘の結衣は先週から水泳教室に通っています。', [fact('結衣', 'goes_to', '水泳教室', '結衣は水泳教室に通っている。', { ...org, since: '先週', valid: '2026-09-07', subjectAliases: ['娘'], predicateAliases: ['attends', 'takes', 'learning'] })]),
    user(LATER, '2週間前からリモート勤務になりました。', [fact('me', 'work_style', 'リモート勤務', '私はリモート勤務をしている。', { since: '2週間前', valid: '2026-09-02', predicateAliases: ['works', 'works_remotely', 'work_mode', 'working_style'], objectAliases: ['リモート', '在宅勤務'] })]),
    user(NEXT_DAY, '先週末に新しい自転車を買いました。', [fact('me', 'owns', '新しい自転車', '私は新しい自転車を持っている。', { objectType: 'thing', since: '先週末', valid: '2026-09-12', predicateAliases: ['bought', 'has'], objectAliases: ['自転車'] })]),
  ]),
  dates('weekdays', [
    user(NOW, '金曜日に新しいマンションの契約をしました。', [fact('me', 'lives_in', '新しいマンション', '私は新しいマンションに住んでいる。', { ...place, since: '金曜日', valid: '2026-09-11', predicateAliases: ['rents', 'contracted'], objectAliases: ['マンション'] })]),
    user(LATER, '祖母は月曜日に老人ホームに入居しました。', [fact('祖母', 'lives_in', '老人ホーム', '祖母は老人ホームに住んでいる。', { ...place, since: '月曜日', valid: '2026-09-14', subjectAliases: ['おばあちゃん', '祖母さん'] })]),
    user(NEXT_DAY, '来週の月曜日からチームリーダーになります。', [fact('me', 'job_title', 'チームリーダー', '私はチームリーダーだ。', { since: '来週の月曜日', valid: '2026-09-21', predicateAliases: ['role', 'position'] })]),
  ]),
  dates('months', [
    user(NOW, '3月からベジタリアンです。', [fact('me', 'diet', 'ベジタリアン', '私はベジタリアンだ。', { since: '3月', valid: '2026-03', predicateAliases: ['is', 'eats', 'follows'], objectAliases: ['菜食主義'] })]),
    user(LATER, '弟の拓也は先月、真理子さんと結婚しました。', [fact('拓也', 'married_to', '真理子', '拓也は真理子さんと結婚している。', { ...person, cardinality: 'one', since: '先月', valid: '2026-08', subjectAliases: ['弟'] })]),
    user(NEXT_DAY, '2025年1月からNetflixを契約しています。', [fact('me', 'subscribes_to', 'Netflix', '私はNetflixを契約している。', { ...org, since: '2025年1月', valid: '2025-01', predicateAliases: ['has', 'uses', 'subscription'] })]),
    user(NEXT_DAY_2, '来月から名古屋支社で働きます。', [fact('me', 'works_in', '名古屋支社', '私は名古屋支社で働いている。', { ...place, since: '来月', valid: '2026-10', predicateAliases: ['works_at', 'office', 'based_in'], objectAliases: ['名古屋'] })]),
  ]),
  dates('years', [
    user(NOW, '2019年からこの町に住んでいます。', [fact('me', 'lives_in', 'この町', '私はこの町に住んでいる。', { ...place, since: '2019年', valid: '2019', objectAliases: ['町'] })]),
    user(LATER, '両親は去年退職しました。', [fact('両親', 'status', '退職', '両親は退職している。', { since: '去年', valid: '2025', predicateAliases: ['is', 'retired', 'employment_status'], objectAliases: ['定年退職', '退職済み'] })]),
    user(NEXT_DAY, '令和5年に運転免許を取りました。', [fact('me', 'has', '運転免許', '私は運転免許を持っている。', { objectType: 'thing', since: '令和5年', valid: '2023', predicateAliases: ['holds', 'owns'], objectAliases: ['免許'] })]),
  ]),
  dates('absolute', [
    user(NOW, '2024年5月10日に楽天に入社しました。', [fact('me', 'works_at', '楽天', '私は楽天で働いている。', { ...org, since: '2024年5月10日', valid: '2024-05-10', objectAliases: ['Rakuten'] })]),
    user(LATER, '息子の蓮の誕生日は7月4日です。', [fact('蓮', 'birthday', '7月4日', '蓮の誕生日は7月4日。', { subjectAliases: ['息子'], objectAliases: ['07-04', 'July 4'] })]),
    user(NEXT_DAY, '9月1日から自転車で通勤しています。', [fact('me', 'commute', '自転車', '私は自転車で通勤している。', { since: '9月1日', valid: '2026-09-01', predicateAliases: ['commutes_by', 'commutes'], objectAliases: ['自転車通勤'] })]),
  ]),
  dates('ranges', [
    user(NOW, '2015年から2018年までロンドンに住んでいました。', [fact('me', 'lives_in', 'ロンドン', '私はロンドンに住んでいた。', { ...place, since: '2015年', until: '2018年', valid: '2015', invalid: '2018', objectAliases: ['London'] })]),
    user(LATER, '3月3日から3月10日まで母がうちに泊まっていました。', [fact('母', 'stayed_with', '私', '母がうちに泊まっていた。', { since: '3月3日', until: '3月10日', valid: '2026-03-03', invalid: '2026-03-10', objectAliases: ['うち', '我が家'], predicateAliases: ['lived_with', 'stays_with', 'visited'] })]),
    user(NEXT_DAY, '2020年6月から2021年12月までスターバックスで働いていました。', [fact('me', 'works_at', 'スターバックス', '私はスターバックスで働いていた。', { ...org, since: '2020年6月', until: '2021年12月', valid: '2020-06', invalid: '2021-12', objectAliases: ['Starbucks', 'スタバ'] })]),
  ]),
  dates('ranges-2', [
    user(NOW, '去年の4月から今年の3月まで陶芸教室に通っていました。', [fact('me', 'goes_to', '陶芸教室', '私は陶芸教室に通っていた。', { ...org, since: '去年の4月', until: '今年の3月', valid: '2025-04', invalid: '2026-03', predicateAliases: ['attended', 'attends', 'learning'], objectAliases: ['陶芸'] })]),
    user(LATER, '同僚の鈴木さんは来週から来月まで大阪に出張です。', [fact('鈴木', 'located_in', '大阪', '鈴木さんは大阪に出張している。', { ...place, since: '来週', until: '来月', valid: '2026-09-21', invalid: '2026-10', predicateAliases: ['lives_in', 'staying_in', 'business_trip_to', 'travels_to', 'in'] })]),
    user(NEXT_DAY, '平成30年から2020年までジャズバンドで演奏していました。', [fact('me', 'member_of', 'ジャズバンド', '私はジャズバンドで演奏していた。', { ...org, since: '平成30年', until: '2020年', valid: '2018', invalid: '2020', predicateAliases: ['played_in', 'plays_in'] })]),
  ]),
  // An end still to come without a year: the next one, not the last (「8月まで」said in September is next August).
  dates('ends-to-come', [
    user(NOW, '姉は11月までうちに泊まっています。', [fact('姉', 'stays_with', '私', '姉はうちに泊まっている。', { until: '11月まで', invalid: '2026-11', objectAliases: ['うち', '我が家'], predicateAliases: ['stayed_with', 'lives_with', 'visiting'] })]),
    user(LATER, '金曜日まで車を借りています。', [fact('me', 'rents', '車', '私は車を借りている。', { objectType: 'thing', until: '金曜日まで', invalid: '2026-09-18', predicateAliases: ['renting', 'borrows', 'has'], objectAliases: ['レンタカー'] })]),
    user(NEXT_DAY, 'ジムの会員は8月までです。', [fact('me', 'member_of', 'ジム', '私はジムの会員だ。', { ...org, until: '8月まで', invalid: '2027-08', predicateAliases: ['goes_to', 'has'], objectAliases: ['ジムの会員'] })]),
  ]),
];

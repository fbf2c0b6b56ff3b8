/**
 * Japanese: confirmations of what the assistant said (「はい、そうです」 — the fact comes from the
 * assistant's message and cites both), denials and replies that confirm nothing, and chit-chat with
 * nothing to learn (質問、お礼、仮定の話、その日の気分).
 */
import { assistant, fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'Asia/Tokyo';
const A = '2026-09-16T09:59:00+09:00';
const U = '2026-09-16T10:00:00+09:00';
const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;
const confirmed = { fromAssistant: true } as const;

function confirmation(id: string, said: string, reply: string, expect: ReturnType<typeof fact>[]): ScenarioInput {
  return { id: `ja-confirm-${id}`, lang: 'ja', category: 'confirmation', zone: ZONE, messages: [assistant(A, said), user(U, reply, expect)] };
}

function chat(id: string, lines: string[]): ScenarioInput {
  return { id: `ja-chat-${id}`, lang: 'ja', category: 'chit-chat', zone: ZONE, messages: lines.map((line, i) => user(`2026-09-16T${String(10 + i).padStart(2, '0')}:00:00+09:00`, line)) };
}

export const JA_CONFIRMATIONS: ScenarioInput[] = [
  confirmation('nurse', '聖路加病院で看護師として働いているんですよね？', 'はい、そうです。', [
    fact('me', 'works_at', '聖路加病院', '私は聖路加病院で働いている。', { ...org, ...confirmed, objectAliases: ['聖路加国際病院'] }),
    fact('me', 'job_title', '看護師', '私は看護師だ。', confirmed),
  ]),
  confirmation('sister', '妹の美穂さんは仙台に住んでいるとおっしゃっていましたね。', 'ええ、その通りです。', [fact('美穂', 'lives_in', '仙台', '美穂は仙台に住んでいる。', { ...place, ...confirmed, subjectAliases: ['妹'] })]),
  confirmation('allergy', 'そばアレルギーがあるとのことですね。レシピでは避けるようにしますか？', 'はい、お願いします。', [fact('me', 'allergic_to', 'そば', '私はそばアレルギーがある。', { ...confirmed, objectAliases: ['蕎麦', 'そばアレルギー'] })]),
  confirmation('since', '2020年からベジタリアンなんですか？', 'そうです、2020年からです。', [fact('me', 'diet', 'ベジタリアン', '私はベジタリアンだ。', { ...confirmed, since: '2020年', valid: '2020', predicateAliases: ['is', 'eats', 'follows'] })]),
  confirmation('manager', '今月から新しい上司は佐々木さんになったんですね？', 'はい、合ってます。', [fact('me', 'manager', '佐々木', '私の上司は佐々木さん。', { ...person, ...confirmed, since: '今月', valid: '2026-09' })]),
  confirmation('plus', 'バイオリンを弾くんでしたよね。', 'そうです。あとチェロも弾きます。', [
    fact('me', 'plays', 'バイオリン', '私はバイオリンを弾く。', { ...confirmed, objectAliases: ['ヴァイオリン'] }),
    fact('me', 'plays', 'チェロ', '私はチェロを弾く。'),
  ]),
  confirmation('denied', '名古屋にお住まいでしたよね？', 'いいえ、岐阜に住んでいます。', [fact('me', 'lives_in', '岐阜', '私は岐阜に住んでいる。', place)]),
  confirmation('denied-2', '飼っている猫の名前はモモでしたっけ？', 'それは隣の家の猫です。うちの猫はココです。', [fact('me', 'has_pet', 'ココ', 'うちの猫の名前はココ。', { objectType: 'thing', predicateAliases: ['cat', 'pet', 'owns', 'cat_name'] })]),
  confirmation('thanks-only', '東京から京都までは新幹線で約2時間15分です。', 'ありがとう、助かります。', []),
  confirmation('unsure', 'お兄さんはグーグルで働いていると言っていましたか？', 'うーん、そんなこと言ったかな。', []),
  confirmation('question', '歯医者の予約リマインダーは毎週月曜日に設定しました。', '何時に届きますか？', []),
  confirmation('partial', '6月に福岡へ引っ越して、そこでLINEヤフーで働いているんですよね？', '福岡に6月に引っ越したのは合ってますが、勤め先はLINEヤフーではなくメルカリです。', [
    fact('me', 'lives_in', '福岡', '私は福岡に住んでいる。', { ...place, ...confirmed, since: '6月', valid: '2026-06' }),
    fact('me', 'works_at', 'メルカリ', '私はメルカリで働いている。', { ...org, objectAliases: ['Mercari'] }),
  ]),
];

export const JA_CHIT_CHAT: ScenarioInput[] = [
  chat('greetings', ['おはようございます！', 'ありがとう、とても助かりました。', 'www', '了解です。', 'それは面白いですね（笑）']),
  chat('questions', ['今週末のパリの天気はどうですか？', '摂氏を華氏に変換するにはどうすればいいですか？', 'この記事を要約してもらえますか？', '私ってどこに住んでるんだっけ？', 'ペンギンのジョークを教えて。']),
  chat('hypothetical', ['もしパリに住んでいたら毎日クロワッサンを食べるのになあ。', '今日はちょっと疲れています。', 'いつかサーフィンを習うかもしれない。', '話せる犬がいたら楽しいだろうね！', 'ちょっと考えてからまた連絡します。']),
  chat('about-others', ['コーヒーは体に悪いと言う人もいますよね。', '東京タワーの高さは333メートルでしたっけ？', 'タコには心臓が3つあるって知ってた？', 'うーん。', 'やっぱり今のは忘れてください。']),
];

/**
 * The words of the conversation set (dialogues.ts): names, places and things to draw from, and the
 * sentences a fact is written in, English and Japanese. The names are chosen so none is a word or a
 * part of a name in the generated filler memory (test/fixtures/synthetic-memory.ts): a hit on a
 * name is a hit on this set's people.
 */
export type Lang = 'en' | 'ja';

export interface Pools {
  names: string[];
  companies: string[];
  cities: string[];
  pets: string[];
  likes: string[];
  events: string[];
  foods: string[];
  topics: string[];
}

export const POOLS: Record<Lang, Pools> = {
  en: {
    names: [
      'Mia', 'Ren', 'Leo', 'Ava', 'Kai', 'Nina', 'Owen', 'Lucy', 'Noa', 'Tao', 'Ines', 'Rafe', 'Priya', 'Jonah', 'Keira', 'Milo',
      'Anya', 'Dev', 'Lena', 'Theo', 'Sasha', 'Omar', 'Greta', 'Felix', 'Ruth', 'Idris', 'Cleo', 'Bram', 'Nell', 'Otto', 'Zara',
      'Hugo', 'Elif', 'Marco', 'Tamsin', 'Kofi', 'Freya', 'Arlo', 'Juno', 'Ezra', 'Saoirse', 'Bodhi', 'Wren', 'Rohan', 'Imogen',
      'Callum', 'Esme', 'Joaquin',
    ],
    companies: [
      'Brightwave Studio', 'Northfield Bakery', 'Cobalt Analytics', 'Harbor Freight Lines', 'Lumen Health', 'Pinecone Games',
      'Redwood Legal', 'Tidewater Press', 'Quarry Labs', 'Silverline Transit', 'Orchard Schools', 'Beacon Robotics', 'Kestrel Energy',
      'Marigold Hotels', 'Fernhill Clinic', 'Driftwood Media',
    ],
    cities: ['Porto', 'Vancouver', 'Melbourne', 'Edinburgh', 'Denver', 'Auckland', 'Montreal', 'Copenhagen', 'Portland', 'Wellington', 'Valencia', 'Bristol', 'Oslo', 'Galway'],
    pets: ['Biscuit', 'Pepper', 'Maple', 'Juniper', 'Pickles', 'Waffles', 'Clover', 'Nutmeg', 'Ziggy', 'Bramble', 'Tofu', 'Poppy', 'Rusty', 'Olive', 'Mango', 'Sprout'],
    likes: ['pottery', 'bouldering', 'vinyl records', 'birdwatching', 'kayaking', 'crossword puzzles', 'Thai curry', 'film photography', 'trail running', 'karaoke', 'stargazing', 'origami'],
    events: [
      'the Porto jazz festival', 'a pottery workshop', 'the Edinburgh book fair', 'a wedding in Bath', 'the city half marathon',
      'a Korean cooking class', 'a sumo tournament', "a cousin's graduation", 'the lantern festival', 'a silent retreat',
      'a robotics meetup', 'an open-air cinema night', 'a comedy show', 'a wine tasting', 'a charity bike ride', 'a tango night',
    ],
    foods: ['ramen', 'tacos', 'lentil soup', 'fish and chips', 'a burrito', 'dumplings', 'pad thai', 'a veggie burger'],
    topics: ['volcanoes', 'octopuses', 'the Roman empire', 'urban gardening', 'deep-sea fishing', 'chess openings', 'ancient Egypt', 'bees'],
  },
  ja: {
    names: [
      '千尋', '琴音', '颯真', '湊人', '紬希', '朔也', '凪沙', '樹里', '柚葉', '律子', '詩織', '遥斗', '瑞穂', '環奈', '咲良', '伊織',
      '紗季', '航平', '日向', '七海', '玲央', '志保', '透子', '灯里', '杏奈', '慧吾', '葵生', '澪央', '碧斗', '楓馬', '雫月', '琥珀',
      '泉美', '梢恵', '岳志', '篤郎', '紘一', '霞音', '鞠絵', '蕾乃', '滉平', '汐音', '鴻太', '渚沙', '椿季', '蛍子', '萌絵', '啓吾',
    ],
    companies: ['ひかり出版', '青空フーズ', '白樺デザイン', 'みどり薬局', '銀河ゲームス', '若葉保育園', '朝凪建設', '紅葉観光', '星見テレビ', '海風電機', '月影書房', '桜坂印刷', '瑠璃ホテル', '小春製菓', '雲雀運輸', '珊瑚病院'],
    cities: ['松山', '長崎', '函館', '熊本', '高松', '盛岡', '松江', '富山', '鹿児島', '新潟', '宇都宮', '徳島', '秋田', '弘前'],
    pets: ['こむぎ', 'あずき', 'そら', 'きなこ', 'ぽんず', 'だいず', 'むぎ', 'ちくわ', 'おこげ', 'もなか', 'わらび', 'ごま', 'さくも', 'たまご', 'ゆず', 'くるみ'],
    likes: ['陶芸', 'ボルダリング', 'レコード収集', 'バードウォッチング', 'カヤック', 'クロスワード', 'タイカレー', 'フィルムカメラ', 'トレイルラン', 'カラオケ', '天体観測', '折り紙'],
    events: ['陶芸体験', '花火大会', 'ジャズフェス', '友人の結婚式', 'ハーフマラソン', '料理教室', '相撲観戦', '弟の卒業式', '灯籠まつり', '座禅会', 'ロボット勉強会', '野外映画会', '落語会', '酒蔵見学', 'サイクリング大会', 'タンゴの夜'],
    foods: ['ラーメン', 'タコス', 'おでん', '焼きそば', 'ブリトー', '餃子', 'パッタイ', '野菜バーガー'],
    topics: ['火山', 'タコ', 'ローマ帝国', '都市農業', '深海魚', 'チェスの定跡', '古代エジプト', 'ミツバチ'],
  },
};

/** The sentences facts are written in: one function per kind of fact, per language. */
export interface Sentences {
  worksAt(x: string, company: string): string;
  newJob(x: string, company: string): string;
  livesIn(x: string, city: string): string;
  moved(x: string, city: string): string;
  dating(x: string, partner: string): string;
  newPartner(x: string, partner: string): string;
  friend(x: string, friend: string): string;
  adoptedDog(x: string, pet: string): string;
  adoptedCat(x: string, pet: string): string;
  sister(x: string, sister: string): string;
  likes(x: string, thing: string): string;
  trip(x: string, city: string, when: string): string;
  event(x: string, event: string, when: string): string;
  smallTalk: ((x: string, food: string, topic: string) => string)[];
  yesterday: string;
  lastWeek: string;
}

export const SENTENCES: Record<Lang, Sentences> = {
  en: {
    worksAt: (x, c) => `${x} works at ${c}.`,
    newJob: (x, c) => `${x} started a new job at ${c} last week.`,
    livesIn: (x, city) => `${x} lives in ${city}.`,
    moved: (x, city) => `${x} moved to ${city} last week.`,
    dating: (x, p) => `${x} started going out with ${p}.`,
    newPartner: (x, p) => `${x}'s new partner is ${p}.`,
    friend: (x, f) => `${x}'s old friend ${f} came to stay for a few days.`,
    adoptedDog: (x, pet) => `${x} adopted a dog named ${pet}.`,
    adoptedCat: (x, pet) => `${x} adopted a cat named ${pet}.`,
    sister: (x, s) => `${x}'s sister is ${s}.`,
    likes: (x, thing) => `${x} loves ${thing}.`,
    trip: (x, city, when) => `${x} took a trip to ${city} ${when}.`,
    event: (x, e, when) => `${x} went to ${e} ${when}.`,
    smallTalk: [
      (x) => `${x} said work was tiring this week.`,
      (x, food) => `${x} had ${food} for dinner.`,
      (x, _f, topic) => `${x} is reading a book about ${topic}.`,
      (x, _f, topic) => `${x} watched a documentary about ${topic}.`,
      (x) => `${x} felt sleepy at the office all afternoon.`,
      (x, food) => `${x} tried to cook ${food} at home.`,
      (x, _f, topic) => `${x} listened to a podcast about ${topic}.`,
      (x) => `${x} spent the weekend cleaning the flat.`,
    ],
    yesterday: 'yesterday',
    lastWeek: 'last week',
  },
  ja: {
    worksAt: (x, c) => `${x}は${c}で働いている。`,
    newJob: (x, c) => `${x}は先週から${c}で働き始めた。`,
    livesIn: (x, city) => `${x}は${city}に住んでいる。`,
    moved: (x, city) => `${x}は先週${city}に引っ越した。`,
    dating: (x, p) => `${x}は${p}と付き合い始めた。`,
    newPartner: (x, p) => `${x}の新しい恋人は${p}だ。`,
    friend: (x, f) => `${x}の古い友達の${f}が数日泊まりに来た。`,
    adoptedDog: (x, pet) => `${x}は${pet}という犬を飼い始めた。`,
    adoptedCat: (x, pet) => `${x}は${pet}という猫を飼い始めた。`,
    sister: (x, s) => `${x}の妹は${s}だ。`,
    likes: (x, thing) => `${x}は${thing}が大好きだ。`,
    trip: (x, city, when) => `${x}は${when}${city}へ旅行した。`,
    event: (x, e, when) => `${x}は${when}${e}に行った。`,
    smallTalk: [
      (x) => `${x}は今週は仕事で疲れたと言った。`,
      (x, food) => `${x}は夕食に${food}を食べた。`,
      (x, _f, topic) => `${x}は${topic}についての本を読んでいる。`,
      (x, _f, topic) => `${x}は${topic}のドキュメンタリーを見た。`,
      (x) => `${x}は午後ずっと会社で眠かった。`,
      (x, food) => `${x}は家で${food}を作ってみた。`,
      (x, _f, topic) => `${x}は${topic}についてのポッドキャストを聞いた。`,
      (x) => `${x}は週末ずっと部屋の掃除をした。`,
    ],
    yesterday: '昨日',
    lastWeek: '先週',
  },
};

/**
 * Facts told in words a question will not use (the paraphrase kind): the fact, its predicate and
 * object, and the question — which shares no content word (EN) and no kanji/katakana pair (JA) with
 * the fact but the person's name (pinned by the set's unit test).
 */
export interface Paraphrase {
  predicate: string;
  object: string;
  fact: (x: string) => string;
  question: (x: string) => string;
}

export const PARAPHRASES: Record<Lang, Paraphrase[]> = {
  en: [
    { predicate: 'takes_class', object: 'salsa', fact: (x) => `${x} started taking salsa classes.`, question: (x) => `Which dance lessons does ${x} go to?` },
    { predicate: 'bought', object: 'electric bike', fact: (x) => `${x} bought an electric bike.`, question: (x) => `What new vehicle did ${x} purchase?` },
    { predicate: 'plays', object: 'cello', fact: (x) => `${x} is learning the cello.`, question: (x) => `Which musical instrument does ${x} practise?` },
    { predicate: 'completed', object: 'Kobe marathon', fact: (x) => `${x} ran the Kobe marathon.`, question: (x) => `Which long-distance race did ${x} finish?` },
    { predicate: 'volunteers_at', object: 'animal shelter', fact: (x) => `${x} volunteers at an animal shelter.`, question: (x) => `Where does ${x} help out unpaid?` },
    { predicate: 'bakes', object: 'sourdough', fact: (x) => `${x} bakes sourdough loaves.`, question: (x) => `What does ${x} make in the oven?` },
  ],
  ja: [
    { predicate: 'takes_class', object: 'salsa', fact: (x) => `${x}はサルサ教室に通い始めた。`, question: (x) => `${x}が習っている踊りは？` },
    { predicate: 'bought', object: 'electric bike', fact: (x) => `${x}は電動自転車を買った。`, question: (x) => `${x}が購入した乗り物は？` },
    { predicate: 'plays', object: 'cello', fact: (x) => `${x}はチェロを始めた。`, question: (x) => `${x}が練習している楽器は？` },
    { predicate: 'completed', object: 'Kobe marathon', fact: (x) => `${x}は神戸マラソンを完走した。`, question: (x) => `${x}が走り切った長距離レースは？` },
    { predicate: 'volunteers_at', object: 'animal shelter', fact: (x) => `${x}は動物保護施設でボランティアをしている。`, question: (x) => `${x}が無償で手伝っている場所は？` },
    { predicate: 'bakes', object: 'sourdough', fact: (x) => `${x}は天然酵母のパンを焼く。`, question: (x) => `${x}がオーブンで作るものは？` },
  ],
};

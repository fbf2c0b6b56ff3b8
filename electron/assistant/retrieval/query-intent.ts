/**
 * Does a question ask about the past or about a change? Then retrieval brings closed facts too,
 * with their intervals. One small component, tested on its own, instead of string checks scattered
 * around retrieval and chat.
 */
export interface QueryIntent {
  /** Include closed (historical) facts. */
  history: boolean;
  /** The cue that decided it, for explanations and tests. */
  cue: string | null;
}

const ENGLISH_CUES = [
  'when', 'before', 'used to', 'previous', 'previously', 'former', 'formerly', 'earlier', 'history', 'ago', 'last year',
  'last month', 'last week', 'in the past', 'originally', 'at first', 'changed', 'change', 'switched', 'moved', 'since when',
  'how long', 'until', 'back then', 'was', 'were', 'did', 'had', 'anymore', 'any more', 'no longer', 'old', 'ex', 'still', 'stopped', 'quit',
];
const JAPANESE_CUES = ['いつ', '以前', '前は', '前の', '昔', 'かつて', '元の', '元々', 'もともと', '変わ', '変更', 'までは', '当時', '去年', '先月', '先週', '最初', 'だった', 'でした', 'ました', '引っ越', 'いつから', 'いつまで', '履歴', '経緯', 'まだ', 'やめ', '辞め'];

const ENGLISH = new RegExp(`\\b(${ENGLISH_CUES.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\b`, 'iu');

export function detectQueryIntent(query: string): QueryIntent {
  const text = query.normalize('NFKC');
  const english = ENGLISH.exec(text);
  if (english) return { history: true, cue: english[1]!.toLowerCase() };
  const japanese = JAPANESE_CUES.find((cue) => text.includes(cue));
  if (japanese) return { history: true, cue: japanese };
  if (/\b(19|20)\d{2}\b|\d{1,2}月/u.test(text)) return { history: true, cue: 'date' };
  return { history: false, cue: null };
}

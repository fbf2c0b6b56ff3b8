/** A conversation's title from its first message: the first line, spaces collapsed, at most 60 characters. */
export function titleFromMessage(content: string): string {
  const chars = [...(content.trim().split('\n')[0] ?? '').trim().replace(/\s+/g, ' ')];
  return chars.length > 60 ? `${chars.slice(0, 59).join('').trimEnd()}…` : chars.join('');
}

/**
 * A count said in words, once for every face: "1 fact", "45,412 facts" (the app in the user's
 * locale, the command line and agents in en-US).
 */
const countFormats = new Map<string, Intl.NumberFormat>();

/** "45,412": the count in `locale` (absent: the runtime's own). */
export function formatCount(count: number, locale?: string): string {
  const key = locale ?? '';
  let format = countFormats.get(key);
  if (!format) countFormats.set(key, (format = new Intl.NumberFormat(locale)));
  return format.format(count);
}

/** "1 fact", "45,412 facts"; `many`: the plural where it is not `one` + s. */
export function plural(count: number, one: string, many = `${one}s`, locale?: string): string {
  return `${formatCount(count, locale)} ${count === 1 ? one : many}`;
}

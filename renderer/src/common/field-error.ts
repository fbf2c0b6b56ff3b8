import { formatAt } from '../../../shared/time-format';
import { errorField, errorMessage, reworded } from '../api/errors';

/** "“garbage” cannot be read as a time: write a date like 1 Jun 2026, …" — in the locale's order. */
export function unreadableTime(text: string, locale: string, timeZone: string): string {
  const format = { locale, timeZone };
  const day = formatAt('2026-06-01T12:00:00.000Z', 'day', format);
  const time = formatAt('2026-06-01T10:00:00.000Z', 'instant', { locale, timeZone: 'UTC' });
  return `“${text}” cannot be read as a time: write a date like ${day}, a time like ${time}, or words like “yesterday”.`;
}

/**
 * What is wrong with a time a person typed, as every time field says it (the Timeline's as-of and
 * known-at, the edit and close forms): a fault main can name in its words ("2026-02-30 is not a
 * date: February 2026 has 28 days", an ambiguous 10/09/2026); text that is no time at all with
 * examples in the locale's order (unreadableTime), not main's ISO ones.
 */
export function timeFaultWords(fault: string, typed: string, locale: string, timeZone: string): string {
  return /^not a time\b/.test(fault) ? unreadableTime(typed, locale, timeZone) : fault;
}

/** The times a form sent, by field, as typed, and the locale and zone they were read in: for timeFaultWords. */
export interface TypedTimes {
  text: Readonly<Record<string, string>>;
  locale: string;
  timeZone: string;
}

/**
 * main's message about one field of a form, in the form's words: the fields named by their labels
 * and what is wrong ("Fact: must not be empty"; "True until (1 Aug 2026) must be after true from
 * (1 Sept 2026, 10:00)"), not the API's "editFact: invalid request: fact: …", whose call name and
 * field names mean nothing to the person at the form.
 */
export function fieldErrorText(message: string, field: string | undefined, labels: Readonly<Record<string, string>>): string {
  let text = message.replace(/^[A-Za-z]+: invalid request: /, '');
  const label = field !== undefined ? labels[field] : undefined;
  if (field !== undefined && label !== undefined) {
    if (text.startsWith(`${field}: `)) text = `${label}: ${text.slice(field.length + 2)}`;
    else if (text.startsWith(`${field} `)) text = `${label} ${text.slice(field.length + 1)}`;
    else text = `${label}: ${text}`;
  }
  // Other fields it names (valid_at, invalid_at): by their labels too.
  const start = label?.length ?? 0;
  const rest = text.slice(start).replace(/\b[a-z]+_[a-z_]+\b/g, (name) => labels[name]?.toLowerCase() ?? name);
  return text.slice(0, start) + rest;
}

/**
 * What a form keeps when main refuses its save: the error itself, its message in the form's words
 * (fieldErrorText), its kind and field kept — ErrorText says a busy refusal as busy, not in the
 * bridge's words, and the form still points at the field it names (errorField). A time field's
 * fault (`times`: what was typed in each) is said as every time field says it (timeFaultWords).
 */
export function inFormWords(error: unknown, labels: Readonly<Record<string, string>>, times?: TypedTimes): Error {
  const field = errorField(error);
  const message = errorMessage(error);
  const typed = field === undefined ? undefined : times?.text[field];
  if (field !== undefined && typed !== undefined && times) {
    const said = message.replace(/^[A-Za-z]+: invalid request: /, '');
    const fault = said.startsWith(`${field}: `) ? said.slice(field.length + 2) : said;
    const words = timeFaultWords(fault, typed, times.locale, times.timeZone);
    if (words !== fault) return reworded(error, `${labels[field] ?? field}: ${words}`);
  }
  return reworded(error, fieldErrorText(message, field, labels));
}

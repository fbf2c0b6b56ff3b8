import { errorField, errorMessage, reworded } from '../api/errors';

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
 * bridge's words, and the form still points at the field it names (errorField).
 */
export function inFormWords(error: unknown, labels: Readonly<Record<string, string>>): Error {
  return reworded(error, fieldErrorText(errorMessage(error), errorField(error), labels));
}

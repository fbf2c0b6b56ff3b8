/**
 * An error on screen: one sentence, announced to screen readers, and the details (what the call or
 * the file said, one problem a line) behind a disclosure. What it shows comes from the one mapping,
 * api/readable-error.ts: no internal call names, no raw parser or schema output in the sentence.
 * `error`: what failed — the error a call threw, kept as it is so its kind picks the sentence (a
 * busy refusal is said as busy, not in the bridge's words), or a message in hand (a form's own
 * check, a file's problem); nothing (null, undefined, '') shows nothing. `fallback`: this place's
 * sentence when the message is not one; `details`: more for the disclosure.
 */
import { readableError } from '../api/readable-error';

interface Props {
  error: unknown;
  fallback?: string;
  details?: string | null;
  id?: string;
}

export function ErrorText({ error, fallback, details, id }: Props) {
  const shown = readableError(error, { fallback, details });
  if (!shown) return null;
  return (
    <div className="error-text">
      <p role="alert" id={id}>
        {shown.sentence}
      </p>
      {shown.details && (
        <details className="error-details">
          <summary>Details</summary>
          <pre>{shown.details}</pre>
        </details>
      )}
    </div>
  );
}

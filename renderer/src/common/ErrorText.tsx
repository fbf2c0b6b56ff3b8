/**
 * An error on screen: one sentence, announced to screen readers, and the details (what the call or
 * the file said, one problem a line) behind a disclosure. What it shows comes from the one mapping,
 * api/readable-error.ts: no internal call names, no raw parser or schema output in the sentence.
 * `message`: a message or an error; `fallback`: this place's sentence when that is not one;
 * `details`: more for the disclosure.
 */
import { readableError } from '../api/readable-error';

interface Props {
  message: unknown;
  fallback?: string;
  details?: string | null;
  id?: string;
}

export function ErrorText({ message, fallback, details, id }: Props) {
  const error = readableError(message, { fallback, details });
  if (!error) return null;
  return (
    <div className="error-text">
      <p role="alert" id={id}>
        {error.sentence}
      </p>
      {error.details && (
        <details className="error-details">
          <summary>Details</summary>
          <pre>{error.details}</pre>
        </details>
      )}
    </div>
  );
}

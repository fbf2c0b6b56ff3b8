/**
 * A file field that says which file the screen is about: its button, and beside it that file's
 * name, or "No file chosen". The browser's own control cannot be trusted to say it: its value is
 * cleared once a file is read (so that the same file can be picked again), and it then reads "No
 * file chosen" over a preview of that very file. The input itself stays, labelled and described by
 * the name shown — what the keyboard, a screen reader and a click reach — laid invisibly over the
 * button drawn for it, which shows its focus and whether it is disabled.
 */
import { useId, type RefObject } from 'react';

interface Props {
  label: string;
  accept: string;
  disabled: boolean;
  /** The file the screen is about now (being read, previewed or imported), or null. */
  chosen: string | null;
  onFile: (file: File) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}

export function FileField({ label, accept, disabled, chosen, onFile, inputRef }: Props) {
  const id = useId();
  return (
    <div className="file-field">
      <label htmlFor={id}>{label}</label>
      <div className="file-picker">
        <span className="file-button-place">
          <input
            ref={inputRef}
            id={id}
            type="file"
            accept={accept}
            disabled={disabled}
            aria-describedby={`${id}-chosen`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onFile(file);
            }}
          />
          <span className="file-button" aria-hidden="true">
            Choose file…
          </span>
        </span>
        <span id={`${id}-chosen`} className={chosen ? 'file-chosen' : 'file-chosen muted'} title={chosen ?? undefined}>
          {chosen ?? 'No file chosen'}
        </span>
      </div>
    </div>
  );
}

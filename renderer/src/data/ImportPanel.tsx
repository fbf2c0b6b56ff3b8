/**
 * Import a memory file of any size: it is uploaded in chunks to a file the engine stages (the
 * bridge's frames stay small; chunked-upload.ts), read by the engine as a stream to preview what it
 * holds and what importing it would add or replace (or the error naming the line or field), then imported from that staged file. A progress bar
 * shows the upload, the reading and the import; Cancel stops it and the staged file is removed.
 * The focus follows: to what the import says once it is done, back to the file field when a job
 * fails or is cancelled or a file was read (the field is disabled while it is).
 */
import { useEffect, useRef, useState } from 'react';
import type { ImportPreview } from '../../../shared/api-contract';
import { formatBytes } from '../../../shared/format-bytes';
import { useApi, useApiEvent } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { FileField } from '../common/FileField';
import { useFocusAfterRender } from '../common/form-focus';
import { plural } from '../common/format';
import { uploadInChunks } from './chunked-upload';
import { importOutcome } from '../../../shared/import-outcome';

type Picked = { name: string; size: number; uploadId: string; preview: ImportPreview };
/** What is under way: its words, and how far (bytes of `max`; null: no measure, e.g. the import itself). */
type Work = { words: string; value: number | null; max: number };
/** The upload or import under way: its id once the engine gave one, and whether the user cancelled it. */
type Job = { uploadId: string | null; name: string; cancelled: boolean };

export function ImportPanel() {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const job = useRef<Job | null>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [replace, setReplace] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [work, setWork] = useState<Work | null>(null);
  /** The file being uploaded and read, before its preview names it. */
  const [reading, setReading] = useState<string | null>(null);
  const doneNote = useRef<HTMLParagraphElement>(null);
  /** Where the focus goes after the render that shows it (the buttons pressed are gone by then). */
  const setFocusTo = useFocusAfterRender({ done: () => doneNote.current, file: () => input.current });

  // Removes a staged file the engine holds for us (cancelled, refused, left behind); never fails.
  const discard = (uploadId: string | null) => {
    if (uploadId) api.cancelImportUpload({ uploadId }).catch(() => undefined);
  };
  const stagedNow = useRef<string | null>(null);
  stagedNow.current = job.current?.uploadId ?? picked?.uploadId ?? null;
  // Leaving the screen cancels what is under way and removes what was staged.
  useEffect(
    () => () => {
      if (job.current) job.current.cancelled = true;
      discard(stagedNow.current);
    },
    [], // on unmount only
  );

  useApiEvent('importUploadProgress', (p) => {
    const current = job.current;
    if (!current || current.cancelled || p.uploadId !== current.uploadId) return;
    setWork(p.phase === 'reading' ? { words: `Reading ${current.name}…`, value: p.bytes, max: p.totalBytes } : { words: `Importing ${current.name}…`, value: null, max: 1 });
  });

  /** Runs `step` as the job under way; a cancelled job ends quietly, a failed one says why. */
  const runJob = async (name: string, uploadId: string | null, step: (current: Job) => Promise<void>) => {
    const current: Job = { uploadId, name, cancelled: false };
    job.current = current;
    setError(null);
    setDone(null);
    try {
      await step(current);
    } catch (e) {
      if (!current.cancelled) {
        setError(e);
        setFocusTo('file');
      }
    } finally {
      if (job.current === current) job.current = null;
      setWork(null);
    }
  };

  const read = (file: File) => {
    const fromField = document.activeElement === input.current;
    discard(picked?.uploadId ?? null);
    setPicked(null);
    setReplace(false);
    setReading(file.name);
    return runJob(file.name, null, async (current) => {
      try {
        const uploadId = await uploadInChunks(file, (chunk) => api.uploadImportFile(chunk), {
          onProgress: (sent, total) => setWork({ words: `Uploading ${file.name}… ${formatBytes(sent)} of ${formatBytes(total)}`, value: sent, max: total }),
          onId: (id) => (current.uploadId = id),
          stopped: () => current.cancelled,
        });
        setWork({ words: `Reading ${file.name}…`, value: 0, max: file.size });
        const preview = await api.previewImportUpload({ uploadId });
        if (current.cancelled) return;
        // A file that cannot be imported is not kept.
        if (!preview.valid) discard(uploadId);
        setPicked({ name: file.name, size: file.size, uploadId, preview });
      } catch (e) {
        discard(current.uploadId);
        throw e;
      } finally {
        setReading(null);
        if (input.current) input.current.value = '';
        if (fromField) setFocusTo('file');
      }
    });
  };

  const run = (chosen: Picked) =>
    runJob(chosen.name, chosen.uploadId, async (current) => {
      setWork({ words: `Reading ${chosen.name}…`, value: 0, max: chosen.size });
      const s = await api.importUpload({ uploadId: chosen.uploadId, replace: replace || undefined });
      if (current.cancelled) return;
      setDone(`Imported ${plural(s.facts, 'fact')}, ${plural(s.entities, 'entity', 'entities')}, ${plural(s.episodes, 'message')} and ${plural(s.conversations, 'conversation')}${s.replaced > 0 ? `; replaced ${plural(s.replaced, 'existing record')}` : ''}${s.merged > 0 ? `; ${plural(s.merged, 'entity', 'entities')} joined the ones already here (you, and the same names)` : ''}${s.queued > 0 ? `; ${plural(s.queued, 'message')} still being learned where this memory was exported will be learned here in the background` : ''}.`);
      setPicked(null);
      setFocusTo('done');
    });

  const cancel = () => {
    if (job.current) {
      job.current.cancelled = true;
      discard(job.current.uploadId);
      job.current = null;
    }
    discard(picked?.uploadId ?? null);
    setPicked(null);
    setReading(null);
    setWork(null);
    if (input.current) input.current.value = '';
    setFocusTo('file');
  };

  const p = picked?.preview;
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import</h2>
      <p>Add the memory from a Tempora export file, of any size. You see what it contains before anything is changed.</p>
      <FileField label="Memory file (.json)" accept="application/json,.json" disabled={work !== null} chosen={picked?.name ?? reading} onFile={(file) => void read(file)} inputRef={input} />
      {work && (
        <div className="upload-progress">
          <progress aria-label="Import progress" max={work.max} {...(work.value === null ? {} : { value: work.value })} />
          <span className="muted small" role="status">
            {work.words}
            {work.value !== null && work.max > 0 ? ` ${Math.floor((work.value / work.max) * 100)}%` : ''}
          </span>
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      <ErrorText error={error} />
      {p && !p.valid && <ErrorText error={`${picked.name} cannot be imported: ${p.error ?? 'unknown problem'}`} />}
      {p && p.valid && (
        <div className="import-preview" aria-label="Import preview">
          <p>
            <strong>{picked.name}</strong> holds:
          </p>
          <ul>
            <li>{plural(p.facts, 'fact')}</li>
            <li>{plural(p.entities, 'entity', 'entities')}</li>
            <li>{plural(p.episodes, 'message')}</li>
            <li>{plural(p.conversations, 'conversation')}</li>
          </ul>
          {/* What the import would do, apart from what the file holds: nothing new when every record is here. */}
          <p className={`import-outcome${p.clashes > 0 ? ' warning' : ''}`}>{importOutcome(p)}</p>
          {p.clashes > 0 && (
            <>
              <label className="checkbox">
                <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace the existing records with the file’s
              </label>
            </>
          )}
          {work === null && (
            <div className="form-actions">
              <button type="button" className="primary" onClick={() => void run(picked)} disabled={p.clashes > 0 && !replace}>
                Import
              </button>
              <button type="button" onClick={cancel}>
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
      {done && (
        <p className="note" role="status" ref={doneNote} tabIndex={-1}>
          {done}
        </p>
      )}
    </section>
  );
}

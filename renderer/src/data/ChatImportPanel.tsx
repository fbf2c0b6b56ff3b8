/**
 * Import a ChatGPT or Claude history: pick the export (the desktop app's dialog gives the engine a
 * path it streams; in a browser the file is uploaded in 4 MiB chunks to a file the engine then
 * streams), preview what it holds and what will be skipped and why — the conversations that cannot
 * be read listed with their faults in words — then import the rest. The messages are then learned in
 * the background (BackfillQueue). The focus follows: to what the import says once it is done, back
 * to the file field when a preview is cancelled or a file read.
 */
import { useId, useRef, useState } from 'react';
import type { ChatExportFile, ChatImportReport } from '../../../shared/chat-import';
import { useApi, useApiEvent, useClient } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { FileField } from '../common/FileField';
import { useFocusAfterRender } from '../common/form-focus';
import { formatCount, formatTime, plural } from '../common/format';
import { BackfillQueue } from '../settings/BackfillQueue';
import { uploadInChunks } from './chunked-upload';

type Picked = { name: string; file: ChatExportFile; preview: ChatImportReport };
const FORMAT_NAMES = { chatgpt: 'ChatGPT', claude: 'Claude' } as const;

export function ChatImportPanel() {
  const api = useApi();
  const { transport } = useClient();
  const format = useTimeFormat();
  const input = useRef<HTMLInputElement>(null);
  const chosenId = useId();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The export being uploaded and read, before its preview names it. */
  const [reading, setReading] = useState<string | null>(null);
  const doneNote = useRef<HTMLParagraphElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  /** Where the focus goes after the render that shows it: what the import said, or the file field. */
  const setFocusTo = useFocusAfterRender({ done: () => doneNote.current, file: () => input.current ?? chooseButton.current });
  useApiEvent('chatImportProgress', (p) => busy && setBusy(`${p.stored ? 'Importing' : 'Reading'}… ${plural(p.conversations, 'conversation')}, ${plural(p.messages, 'message')}`));

  const preview = async (name: string, file: () => Promise<ChatExportFile>) => {
    const fromField = document.activeElement === input.current || document.activeElement === chooseButton.current;
    setError(null);
    setDone(null);
    setPicked(null);
    setReading(name);
    try {
      const chosen = await file();
      setBusy('Reading…');
      setPicked({ name, file: chosen, preview: await api.previewChatImport({ file: chosen }) });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
      setReading(null);
      if (input.current) input.current.value = '';
      // The field was disabled while the file was read: the focus it had goes back to it.
      if (fromField) setFocusTo('file');
    }
  };

  const choose = async () => {
    if (busy !== null) return;
    const { path } = await api.pickChatExport({});
    if (path !== null) await preview(path.split(/[\\/]/).pop() ?? path, async () => ({ path }));
  };

  const upload = (file: File) =>
    preview(file.name, async () => {
      const uploadId = await uploadInChunks(file, (chunk) => api.uploadChatExport(chunk), {
        onProgress: (sent, total) => setBusy(`Uploading… ${Math.floor((sent / Math.max(1, total)) * 100)}%`),
      });
      return { uploadId };
    });

  const run = async () => {
    if (!picked || busy !== null) return;
    setBusy('Importing…');
    setError(null);
    try {
      const r = await api.importChats({ file: picked.file, format: picked.preview.format ?? undefined });
      const unread = r.malformed.count ? ` ${plural(r.malformed.count, 'conversation')} could not be read and ${r.malformed.count === 1 ? 'was' : 'were'} not imported.` : '';
      // Messages already here are said only when there are some: "(0 already here)" says nothing.
      const here = r.alreadyImported > 0 ? ` (${formatCount(r.alreadyImported)} already here)` : '';
      setDone(`Imported ${plural(r.newMessages, 'new message')} in ${plural(r.conversations, 'conversation')}${here}; ${formatCount(r.toLearn)} of your messages will be learned in their own order.${unread}`);
      setPicked(null);
      setFocusTo('done');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const p = picked?.preview;
  /** The file the panel is about: being read, or previewed. */
  const chosen = picked?.name ?? reading;
  return (
    <section className="card" aria-labelledby="chat-import-title">
      <h2 id="chat-import-title">Your history from ChatGPT or Claude</h2>
      <p>Import the export the other assistant gave you (the .zip, or its conversations.json). Each message is learned with its own date, after your live chats.</p>
      {transport === 'ipc' ? (
        <div className="file-picker">
          <button ref={chooseButton} type="button" onClick={() => void choose()} aria-disabled={busy !== null} aria-describedby={chosen ? chosenId : undefined}>
            Choose export…
          </button>
          {chosen && (
            <span id={chosenId} className="file-chosen" title={chosen}>
              {chosen}
            </span>
          )}
        </div>
      ) : (
        <FileField
          label="Export file (.zip or conversations.json)"
          accept=".zip,.json,application/zip,application/json"
          disabled={busy !== null}
          chosen={chosen}
          onFile={(file) => void upload(file)}
          inputRef={input}
        />
      )}
      {busy && (
        <p className="muted small" role="status">
          {busy}
        </p>
      )}
      <ErrorText error={error} />
      {p && picked && (
        <div className="import-preview" aria-label="Chat import preview">
          <p>
            <strong>{picked.name}</strong> ({p.format ? FORMAT_NAMES[p.format] : 'empty'} export):
          </p>
          <ul>
            <li>{plural(p.conversations, 'conversation')}</li>
            <li>
              {plural(p.messages, 'message')}
              {p.alreadyImported > 0 && `, ${formatCount(p.alreadyImported)} already imported`}
            </li>
            {p.from && p.to && (
              <li>
                from {formatTime(p.from, format)} to {formatTime(p.to, format)}
              </li>
            )}
            <li>{plural(p.toLearn, 'message')} of yours to learn (the answers are kept as history)</li>
            {p.profiles > 0 && <li>what your custom instructions say about you: {plural(p.profiles, 'distinct text')}, each once (not once per conversation; your instructions to ChatGPT left out)</li>}
          </ul>
          {(p.skipped.length > 0 || p.doNotRemember > 0) && (
            <>
              <p>Skipped:</p>
              <ul aria-label="Skipped">
                {p.doNotRemember > 0 && <li>{plural(p.doNotRemember, 'conversation')} you marked do-not-remember</li>}
                {p.skipped.map((s) => (
                  <li key={s.reason}>
                    {formatCount(s.count)} {s.why}
                  </li>
                ))}
              </ul>
            </>
          )}
          <NotImported report={p} />
          {p.nonTextParts > 0 && <p className="muted small">{plural(p.nonTextParts, 'image, file or tool part')} of kept messages left out.</p>}
          <div className="form-actions">
            <button type="button" className="primary" onClick={() => void run()} disabled={p.newMessages === 0} aria-disabled={busy !== null}>
              {p.newMessages === 0 ? 'Nothing new to import' : `Import ${plural(p.newMessages, 'message')}`}
            </button>
            <button
              type="button"
              onClick={() => {
                setPicked(null);
                setFocusTo('file');
              }}
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      {done && (
        <p className="note" role="status" ref={doneNote} tabIndex={-1}>
          {done}
        </p>
      )}
      <BackfillQueue />
    </section>
  );
}

/** The conversations of the export that cannot be read: how many, and each listed one with what is wrong with it. */
function NotImported({ report }: { report: ChatImportReport }) {
  const { count, first } = report.malformed;
  if (count === 0) return null;
  const more = count - first.length;
  return (
    <>
      <p>
        Not imported: {plural(count, 'conversation')} could not be read (nothing of {count === 1 ? 'it' : 'them'} will be stored):
      </p>
      <ul aria-label="Not imported" className="small">
        {first.map((m) => (
          <li key={m.index}>
            {m.label}: {m.fault}
          </li>
        ))}
        {more > 0 && <li>… and {formatCount(more)} more</li>}
      </ul>
    </>
  );
}

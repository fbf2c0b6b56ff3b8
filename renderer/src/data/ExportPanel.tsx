/**
 * Save the whole memory as the versioned JSON export (tempora-memory-YYYY-MM-DD.json), pulled in
 * pieces with its progress. "Save export…" waits with aria-disabled, keeping the keyboard's focus
 * (a focused button disabled drops it to the page), and Cancel gives the focus back to it.
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { memoryKeys } from '../app/query-keys';
import { useApi } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { useTimeFormat } from '../app/time-format';
import { formatCount, plural } from '../common/format';
import { toDateInputValue } from '../common/time-input';

export function ExportPanel() {
  const api = useApi();
  const { timeZone } = useTimeFormat();
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  /** The export being read: records in so far of all; null when none. */
  const [work, setWork] = useState<{ records: number; total: number } | null>(null);
  const job = useRef<{ exportId: string | null; cancelled: boolean } | null>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const review = useQuery({ queryKey: [...memoryKeys.all, 'review', 'settings'], queryFn: () => api.reviewSettings({}) });
  const waiting = review.data?.waiting ?? 0;
  const save = async () => {
    if (job.current) return;
    const mine = { exportId: null as string | null, cancelled: false };
    job.current = mine;
    setError(null);
    setNote(null);
    setWork({ records: 0, total: 0 });
    try {
      // Pulled a piece at a time from one snapshot of the memory (exportBegin / exportRead): neither
      // side holds the document whole, so a memory of any size saves, with its progress.
      const begun = await api.exportBegin({});
      mine.exportId = begun.exportId;
      setWork({ records: 0, total: begun.totalRecords });
      const pieces: string[] = [];
      for (;;) {
        if (mine.cancelled) return;
        const piece = await api.exportRead({ exportId: begun.exportId });
        pieces.push(piece.text);
        if (piece.done) break;
        setWork({ records: piece.records, total: piece.totalRecords });
      }
      if (mine.cancelled) return;
      const blob = new Blob(pieces, { type: 'application/json' });
      // Today's date in the user's zone.
      const name = `tempora-memory-${toDateInputValue(Date.now(), timeZone)}.json`;
      const { facts, entities, episodes, conversations } = begun.counts;
      const counts = `${plural(facts, 'fact')}, ${plural(entities, 'entity', 'entities')}, ${plural(episodes, 'message')} and ${plural(conversations, 'conversation')}`;
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      // The file goes out as a download: the save dialog that follows (Electron's, or the browser's)
      // may still be cancelled, and the page never hears back, so this says what it knows.
      setNote(`Exported ${counts} as ${name}: it is saved once the save dialog (or your browser’s download) completes.`);
    } catch (e) {
      if (!mine.cancelled) setError(e);
    } finally {
      if (job.current === mine) {
        job.current = null;
        setWork(null);
      }
    }
  };
  const cancel = () => {
    const current = job.current;
    if (!current) return;
    current.cancelled = true;
    job.current = null;
    setWork(null);
    setNote('Export cancelled: nothing was saved.');
    saveButton.current?.focus();
    if (current.exportId) void api.exportCancel({ exportId: current.exportId }).catch(() => undefined);
  };
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p>Everything Tempora remembers — facts with their full history, entities, messages and conversations — in one JSON file (format tempora.memory, version 3). Importing it elsewhere gives back the same memory.</p>
      {waiting > 0 && (
        <p className="notice-inline" data-testid="export-review-note">
          {plural(waiting, 'message')} {waiting === 1 ? 'waits' : 'wait'} for review: what {waiting === 1 ? 'it proposes is' : 'they propose is'} not in the export. Approve or reject {waiting === 1 ? 'it' : 'them'} first to take it along.
        </p>
      )}
      <button ref={saveButton} type="button" className="primary" onClick={() => void save()} aria-disabled={work !== null}>
        {work ? 'Exporting…' : 'Save export…'}
      </button>
      {work && (
        <div className="upload-progress">
          <progress aria-label="Export progress" max={Math.max(work.total, 1)} value={work.records} />
          <span className="muted small" role="status">
            Reading the memory: {formatCount(work.records)} of {formatCount(work.total)} records
          </span>
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <ErrorText error={error} />
    </section>
  );
}

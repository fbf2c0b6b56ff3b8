/** Save the whole memory as the versioned JSON export (tempora-memory-YYYY-MM-DD.json). */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { exportJsonChunks } from '../../../shared/export-json';
import { memoryKeys } from '../app/query-keys';
import { errorMessage } from '../api/client';
import { useApi } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { useTimeFormat } from '../app/time-format';
import { pluralise } from '../common/format';
import { toDateInputValue } from '../common/time-input';

export function ExportPanel() {
  const api = useApi();
  const { timeZone } = useTimeFormat();
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const review = useQuery({ queryKey: [...memoryKeys.all, 'review', 'settings'], queryFn: () => api.reviewSettings({}) });
  const waiting = review.data?.waiting ?? 0;
  const save = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const doc = await api.exportMemory({});
      // In pieces: the document of a large memory is longer than one string can hold.
      const blob = new Blob([...exportJsonChunks(doc), '\n'], { type: 'application/json' });
      // Today's date in the user's zone.
      const name = `tempora-memory-${toDateInputValue(Date.now(), timeZone)}.json`;
      const counts = `${pluralise(doc.facts.length, 'fact')}, ${pluralise(doc.entities.length, 'entity', 'entities')}, ${pluralise(doc.episodes.length, 'message')} and ${pluralise(doc.conversations.length, 'conversation')}`;
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
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p>Everything Tempora remembers — facts with their full history, entities, messages and conversations — in one JSON file (format tempora.memory, version 3). Importing it elsewhere gives back the same memory.</p>
      {waiting > 0 && (
        <p className="notice-inline" data-testid="export-review-note">
          {pluralise(waiting, 'message')} {waiting === 1 ? 'waits' : 'wait'} for review: what {waiting === 1 ? 'it proposes is' : 'they propose is'} not in the export. Approve or reject {waiting === 1 ? 'it' : 'them'} first to take it along.
        </p>
      )}
      <button type="button" className="primary" onClick={() => void save()} disabled={busy}>
        {busy ? 'Exporting…' : 'Save export…'}
      </button>
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <ErrorText message={error} />
    </section>
  );
}

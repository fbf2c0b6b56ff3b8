/** Import a memory file: read it, preview what it adds (or the error naming the field), then import. */
import { useRef, useState } from 'react';
import type { ImportPreview } from '../../../shared/api-contract';
import { errorMessage } from '../api/client';
import { useApi } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { pluralise } from '../common/format';

type Picked = { name: string; document: unknown; preview: ImportPreview };

export function ImportPanel() {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [replace, setReplace] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const read = async (file: File) => {
    setError(null);
    setDone(null);
    setPicked(null);
    setReplace(false);
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch (e) {
      setError(`${file.name} is not a JSON file: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    try {
      setPicked({ name: file.name, document, preview: await api.previewImport({ document }) });
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const run = async () => {
    if (!picked) return;
    setBusy(true);
    setError(null);
    try {
      const s = await api.importMemory({ document: picked.document, replace: replace || undefined });
      setDone(`Imported ${pluralise(s.facts, 'fact')}, ${pluralise(s.entities, 'entity', 'entities')}, ${pluralise(s.episodes, 'message')} and ${pluralise(s.conversations, 'conversation')}${s.replaced > 0 ? `; replaced ${s.replaced} existing records` : ''}${s.merged > 0 ? `; ${pluralise(s.merged, 'entity', 'entities')} joined the ones already here (you, and the same names)` : ''}.`);
      setPicked(null);
      if (input.current) input.current.value = '';
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const p = picked?.preview;
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import</h2>
      <p>Add the memory from a Tempora export file. You see what it contains before anything is changed.</p>
      <label className="file-field">
        Memory file (.json)
        <input ref={input} type="file" accept="application/json,.json" onChange={(e) => e.target.files?.[0] && void read(e.target.files[0])} />
      </label>
      <ErrorText message={error} />
      {p && !p.valid && <ErrorText message={`${picked.name} cannot be imported: ${p.error ?? 'unknown problem'}`} />}
      {p && p.valid && (
        <div className="import-preview" aria-label="Import preview">
          <p>
            <strong>{picked.name}</strong> adds:
          </p>
          <ul>
            <li>{pluralise(p.facts, 'fact')}</li>
            <li>{pluralise(p.entities, 'entity', 'entities')}</li>
            <li>{pluralise(p.episodes, 'message')}</li>
            <li>{pluralise(p.conversations, 'conversation')}</li>
          </ul>
          {p.clashes > 0 && (
            <>
              <p className="warning">{pluralise(p.clashes, 'record')} already exist here (same ids). Import refuses them unless you replace them.</p>
              <label className="checkbox">
                <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace the existing records with the file’s
              </label>
            </>
          )}
          <div className="form-actions">
            <button type="button" className="primary" onClick={() => void run()} disabled={busy || (p.clashes > 0 && !replace)}>
              {busy ? 'Importing…' : 'Import'}
            </button>
            <button type="button" onClick={() => setPicked(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {done && (
        <p className="note" role="status">
          {done}
        </p>
      )}
    </section>
  );
}

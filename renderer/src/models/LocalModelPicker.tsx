/**
 * Use a GGUF file that is already on disk: a file dialog in the desktop app; in the browser there
 * is none (pickModelFile answers null), so the path is typed.
 */
import { useId, useState, type FormEvent } from 'react';
import { useApi, useClient } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';

export function LocalModelPicker({ busy, onLoad }: { busy: boolean; onLoad(role: 'chat' | 'embedding', path: string): Promise<void> }) {
  const api = useApi();
  const { transport } = useClient();
  const id = useId();
  const [role, setRole] = useState<'chat' | 'embedding'>('chat');
  const [path, setPath] = useState('');
  const [typing, setTyping] = useState(transport === 'bridge');
  const [error, setError] = useState<unknown>(null);

  const pick = async () => {
    setError(null);
    try {
      const picked = await api.pickModelFile({});
      if (picked.path === null) setTyping(true);
      else setPath(picked.path);
    } catch (e) {
      setError(e);
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (path.trim() === '' || busy) return;
    setError(null);
    try {
      await onLoad(role, path.trim());
    } catch (e) {
      setError(e);
    }
  };
  return (
    <form className="card local-model" onSubmit={submit} aria-labelledby="local-title">
      <h2 id="local-title">Use a GGUF file you have</h2>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-role`}>Use it for</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value === 'embedding' ? 'embedding' : 'chat')}>
            <option value="chat">chat</option>
            <option value="embedding">embeddings</option>
          </select>
        </div>
        {transport === 'ipc' && (
          <button type="button" onClick={() => void pick()}>
            Choose file…
          </button>
        )}
      </div>
      {typing && transport === 'bridge' && <p className="muted small">The browser cannot open a file dialog for Tempora: type the model file’s full path on this computer.</p>}
      <div className="field">
        <label htmlFor={`${id}-path`}>Model file path</label>
        <input id={`${id}-path`} value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/model.gguf" spellCheck={false} />
      </div>
      <ErrorText error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={path.trim() === ''} aria-disabled={busy}>
          {busy ? 'Loading…' : 'Load'}
        </button>
      </div>
    </form>
  );
}

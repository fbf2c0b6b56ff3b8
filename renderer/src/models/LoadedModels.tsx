/**
 * Which model is loaded for chat and for embeddings, with Unload. Unload waits with aria-disabled
 * (a focused button disabled drops the focus to the page) and, once the model is gone, gives the
 * focus to what the row then says.
 */
import { useEffect, useRef, useState } from 'react';
import type { ModelStatus } from '../../../shared/api-contract';
import { formatBytes } from '../common/format';

export function LoadedModels({ status, busy, onUnload }: { status: ModelStatus; busy: boolean; onUnload(role: 'chat' | 'embedding'): void }) {
  const [unloading, setUnloading] = useState<'chat' | 'embedding' | null>(null);
  const said = useRef<Partial<Record<'chat' | 'embedding', HTMLElement | null>>>({});
  const gone = unloading !== null && (unloading === 'chat' ? status.chat : status.embedding) === null;
  useEffect(() => {
    if (!gone || unloading === null) return;
    said.current[unloading]?.focus();
    setUnloading(null);
  }, [gone, unloading]);
  const rows = [
    { role: 'chat' as const, title: 'Chat', model: status.chat, none: 'No chat model: chat is unavailable, everything else works.' },
    { role: 'embedding' as const, title: 'Embeddings', model: status.embedding, none: 'No embedding model: search uses words and names only.' },
  ];
  return (
    <section className="card" aria-labelledby="loaded-title">
      <h2 id="loaded-title">Loaded models</h2>
      <dl className="loaded">
        {rows.map(({ role, title, model, none }) => (
          <div key={role} className="loaded-row" data-role={role}>
            <dt>{title}</dt>
            <dd ref={(el) => void (said.current[role] = el)} tabIndex={-1}>
              {model ? (
                <>
                  <strong>{model.name ?? model.path.split(/[\\/]/).pop()}</strong>
                  <span className="muted small">
                    {' '}
                    {formatBytes(model.sizeBytes)} · context {model.contextSize} · {model.threads === 1 ? '1 thread' : `${model.threads} threads`}
                  </span>
                  <div className="muted small path">{model.path}</div>
                  <button
                    type="button"
                    aria-disabled={busy}
                    onClick={() => {
                      if (busy) return;
                      setUnloading(role);
                      onUnload(role);
                    }}
                  >
                    Unload
                  </button>
                </>
              ) : (
                <span className="muted">{none}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <p className="muted small">
        This machine has {formatBytes(status.totalRamBytes)} of memory. Downloads go to <code>{status.modelsDir}</code>.
      </p>
    </section>
  );
}

/** Models: what is loaded, the recommended catalogue (download / load), a local GGUF file. The learning queue and the settings are in Settings. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useApi } from '../app/api-context';
import { useModelStatus } from '../app/model-status';
import { modelKeys } from '../app/query-keys';
import { ErrorText } from '../common/ErrorText';
import { CatalogueCard } from './CatalogueCard';
import { LoadedModels } from './LoadedModels';
import { LocalModelPicker } from './LocalModelPicker';
import { useDownloads } from './use-downloads';

export function ModelsScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const status = useModelStatus();
  const catalogue = useQuery({ queryKey: modelKeys.catalogue, queryFn: () => api.listCatalogue({}) });
  const reloadStatus = () => void queryClient.invalidateQueries({ queryKey: modelKeys.status });
  const downloads = useDownloads(() => void queryClient.invalidateQueries({ queryKey: modelKeys.catalogue }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = async (role: 'chat' | 'embedding', path: string) => {
    setBusy(true);
    setError(null);
    try {
      await api.loadModel({ role, path });
      reloadStatus();
    } finally {
      setBusy(false);
    }
  };
  const loadFromCard = (role: 'chat' | 'embedding', path: string) => load(role, path).catch((e: unknown) => setError(e));
  const unload = async (role: 'chat' | 'embedding') => {
    setBusy(true);
    setError(null);
    try {
      await api.unloadModel({ role });
      reloadStatus();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const s = status.data;
  return (
    <div className="models-screen">
      <header className="screen-header">
        <h1>Models</h1>
        <p className="muted">Everything runs on this computer. Without a model, the memory screens still work.</p>
      </header>
      <ErrorText error={status.error ?? catalogue.error ?? error} />
      <div className="models-grid">
        <div className="models-side">
          {s && <LoadedModels status={s} busy={busy} onUnload={(role) => void unload(role)} />}
          <LocalModelPicker busy={busy} onLoad={load} />
        </div>
        <section aria-labelledby="catalogue-title" className="catalogue">
          <h2 id="catalogue-title">Recommended for this machine</h2>
          {catalogue.data && !catalogue.data.some((e) => e.recommended) && <p className="muted">No chat model in the catalogue fits this machine’s memory; a smaller local GGUF file may.</p>}
          <ul className="catalogue-list">
            {(catalogue.data ?? []).map((entry, index, all) => (
              <Fragment key={entry.id}>
                {index > 0 && all[index - 1]!.recommended && (
                  <li className="catalogue-divider" aria-hidden="true">
                    Other models
                  </li>
                )}
                <CatalogueCard
                  entry={entry}
                  download={downloads.states.get(entry.id)}
                  loadedPath={entry.role === 'chat' ? (s?.chat?.path ?? null) : (s?.embedding?.path ?? null)}
                  onDownload={() => void downloads.start(entry.id)}
                  onCancel={() => void downloads.cancel(entry.id)}
                  onLoad={(path) => void loadFromCard(entry.role, path)}
                />
              </Fragment>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

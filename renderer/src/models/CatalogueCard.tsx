/** One catalogue model: fit for this machine (the one recommended is marked), size, download (progress, cancel, resume) or load. */
import type { CatalogueEntry } from '../../../shared/api-contract';
import { ErrorText } from '../common/ErrorText';
import { formatBytes } from '../common/format';
import { downloadCancelled } from './download-outcome';
import type { DownloadState } from './use-downloads';

const FIT: Record<CatalogueEntry['fit'], string> = { fits: 'Fits this machine', may_be_slow: 'May be slow', wont_fit: 'Won’t fit' };

interface Props {
  entry: CatalogueEntry;
  download: DownloadState | undefined;
  loadedPath: string | null;
  onDownload(): void;
  onCancel(): void;
  onLoad(path: string): void;
}

export function CatalogueCard({ entry, download, loadedPath, onDownload, onCancel, onLoad }: Props) {
  const running = download?.running ?? false;
  const percent = download && download.totalBytes > 0 ? Math.min(100, (download.downloadedBytes / download.totalBytes) * 100) : 0;
  const failed = download?.error ?? null;
  // Told by the error's code and detail (or this window's own Cancel), never by its words (download-outcome.ts).
  const cancelled = downloadCancelled(failed, download?.cancelAsked ?? false);
  return (
    <li className="card model-card" aria-label={entry.name} data-model-id={entry.id}>
      <div className="model-head">
        <h3>{entry.name}</h3>
        {entry.recommended && <span className="badge recommended">Recommended</span>}
        <span className={`fit fit-${entry.fit}`}>{FIT[entry.fit]}</span>
      </div>
      <p className="muted small">
        {entry.role === 'chat' ? 'Chat model' : 'Embedding model'} · download {formatBytes(entry.sizeBytes)} · needs about {formatBytes(entry.ramBytes)} of memory
      </p>
      <p className="small">{entry.notes}</p>
      {running && (
        <div className="download">
          <progress max={100} value={percent} aria-label={`Downloading ${entry.name}`} />
          <span className="small">
            {formatBytes(download?.downloadedBytes ?? 0)}
            {download && download.totalBytes > 0 ? ` of ${formatBytes(download.totalBytes)} (${percent.toFixed(0)}%)` : ''}
          </span>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
      {!running && failed !== null && (cancelled ? <p className="muted small">Download cancelled; it can be resumed.</p> : <ErrorText error={failed} />)}
      {!running && (
        <div className="form-actions">
          {entry.path ? (
            <>
              <span className="badge ok">Downloaded</span>
              {loadedPath === entry.path ? (
                <span className="badge">Loaded for {entry.role}</span>
              ) : (
                <button type="button" className="primary" onClick={() => entry.path && onLoad(entry.path)}>
                  Load for {entry.role}
                </button>
              )}
            </>
          ) : (
            <button type="button" className={entry.fit === 'wont_fit' ? '' : 'primary'} onClick={onDownload}>
              {entry.partial ? 'Resume download' : 'Download'}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

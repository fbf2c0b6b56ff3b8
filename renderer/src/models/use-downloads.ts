/** Download progress per catalogue model, from downloadProgress events; start, cancel. */
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { useApi, useApiEvent } from '../app/api-context';

export interface DownloadState {
  downloadedBytes: number;
  totalBytes: number;
  done: boolean;
  error: string | null;
  /** This window is waiting for the download call to return. */
  running: boolean;
}

export function useDownloads(onFinished: () => void) {
  const api = useApi();
  const [states, setStates] = useState<ReadonlyMap<string, DownloadState>>(new Map());
  const patch = (id: string, change: Partial<DownloadState>) =>
    setStates((current) => {
      const next = new Map(current);
      const before = current.get(id) ?? { downloadedBytes: 0, totalBytes: 0, done: false, error: null, running: false };
      next.set(id, { ...before, ...change });
      return next;
    });

  useApiEvent('downloadProgress', (p) => patch(p.id, { downloadedBytes: p.downloadedBytes, totalBytes: p.totalBytes, done: p.done, error: p.error, running: !p.done }));

  const start = async (id: string) => {
    patch(id, { running: true, done: false, error: null });
    try {
      await api.downloadModel({ id });
      patch(id, { running: false, done: true, error: null });
    } catch (e) {
      patch(id, { running: false, done: true, error: errorMessage(e) });
    }
    onFinished();
  };
  const cancel = async (id: string) => {
    try {
      await api.cancelDownload({ id });
    } catch (e) {
      patch(id, { error: errorMessage(e) });
    }
  };
  return { states, start, cancel };
}

/**
 * Download progress per catalogue model: the downloads the core has in progress (read on mount, so
 * leaving the Models screen or reloading keeps the bar), then downloadProgress events; start, cancel.
 * A failed call is kept as the error itself, so the card says its kind (a busy refusal as busy), and
 * whether this window asked to cancel the download, so the card can tell a cancel from a failure
 * without reading the error's words (download-outcome.ts).
 */
import { useEffect, useState } from 'react';
import { useApi, useApiEvent } from '../app/api-context';

export interface DownloadState {
  downloadedBytes: number;
  totalBytes: number;
  done: boolean;
  /** What failed: the progress event's words, or the error a call rejected with; null when nothing did. */
  error: unknown;
  /** This window is waiting for the download call to return. */
  running: boolean;
  /** This window asked the core to cancel this download (since it was last started). */
  cancelAsked: boolean;
}

export function useDownloads(onFinished: () => void) {
  const api = useApi();
  const [states, setStates] = useState<ReadonlyMap<string, DownloadState>>(new Map());
  const patch = (id: string, change: Partial<DownloadState>) =>
    setStates((current) => {
      const next = new Map(current);
      const before = current.get(id) ?? { downloadedBytes: 0, totalBytes: 0, done: false, error: null, running: false, cancelAsked: false };
      next.set(id, { ...before, ...change });
      return next;
    });

  useEffect(() => {
    let live = true;
    api.listDownloads({}).then(
      (downloads) => {
        if (!live) return;
        // An event that came first is newer than this answer: it wins.
        setStates((current) => {
          const next = new Map(current);
          for (const d of downloads) if (!next.has(d.id)) next.set(d.id, { downloadedBytes: d.downloadedBytes, totalBytes: d.totalBytes, done: false, error: null, running: true, cancelAsked: false });
          return next;
        });
      },
      () => undefined, // an older core without the call: events still tell progress
    );
    return () => {
      live = false;
    };
  }, [api]);

  useApiEvent('downloadProgress', (p) => {
    patch(p.id, { downloadedBytes: p.downloadedBytes, totalBytes: p.totalBytes, done: p.done, error: p.error, running: !p.done });
    if (p.done) onFinished();
  });

  const start = async (id: string) => {
    patch(id, { running: true, done: false, error: null, cancelAsked: false });
    try {
      await api.downloadModel({ id });
      patch(id, { running: false, done: true, error: null });
    } catch (e) {
      patch(id, { running: false, done: true, error: e ?? 'the download failed' });
    }
    onFinished();
  };
  const cancel = async (id: string) => {
    // Asked before the call: the download may stop (and say so) before the call returns.
    patch(id, { cancelAsked: true });
    try {
      await api.cancelDownload({ id });
    } catch (e) {
      patch(id, { error: e ?? 'the download could not be cancelled', cancelAsked: false });
    }
  };
  return { states, start, cancel };
}

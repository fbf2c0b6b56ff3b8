/**
 * Settings → Sync: where this device syncs the memory to (a folder, WebDAV or S3-compatible storage,
 * with their fields), the passphrase (never shown back: only a key made from it is kept, in the
 * system's keychain or an owner-only file), this device's name, and the status (last sync, devices
 * seen, records not yet sent, devices whose changes wait: their name, why in one sentence, since when)
 * with "Sync now" and Pause once a target is kept (before, they could not work, and are not shown); a
 * folder that is not there yet is refused with "Create the folder" beside the refusal, which saves
 * again asking the engine to create it (that one folder: sync-service.ts), the focus then on what it
 * said, or, refused, back in the folder field, which the refusal describes (the button pressed is
 * gone: the focus is never dropped to the page); a running sync says how far it is (segments applied, records sent) as
 * main tells it; its answer is a success note, or a warning (announced) when it refused or left
 * something waiting. A secret left empty keeps the kept one.
 * Main checks the target and passphrase against the target's key check before keeping anything.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { SYNC_FOLDER_MISSING, syncProgressWords, type SyncProgress, type SyncState } from '../../../shared/sync-contract';
import { isApiError } from '../api/client';
import { formatInstant } from '../../../shared/time-format';
import { useApi, useApiEvent } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { useFocusAfterRender } from '../common/form-focus';
import { plural } from '../common/format';

const syncKey = ['settings', 'sync'] as const;
type Kind = 'folder' | 'webdav' | 's3';
type Fields = Record<string, string>;
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'folder', label: 'A folder (also one kept in Syncthing, Dropbox, iCloud Drive or OneDrive)' },
  { kind: 'webdav', label: 'A WebDAV server (Nextcloud, ownCloud, a NAS)' },
  { kind: 's3', label: 'S3-compatible storage (S3, MinIO, B2, R2)' },
];

function fieldsOf(state: SyncState | undefined): { kind: Kind; fields: Fields; pathStyle: boolean } {
  const target = state?.target;
  if (!target) return { kind: 'folder', fields: {}, pathStyle: true };
  const { kind, ...rest } = target;
  const fields = Object.fromEntries(Object.entries(rest).filter(([, value]) => typeof value === 'string')) as Fields;
  return { kind, fields, pathStyle: target.kind === 's3' ? target.forcePathStyle : true };
}

export function SyncSetting() {
  const api = useApi();
  const queryClient = useQueryClient();
  const format = useTimeFormat();
  const id = useId();
  const state = useQuery({ queryKey: syncKey, queryFn: () => api.syncState({}) });
  const current = state.data;
  const [kind, setKind] = useState<Kind>('folder');
  const [fields, setFields] = useState<Fields>({});
  const [pathStyle, setPathStyle] = useState(true);
  const [passphrase, setPassphrase] = useState('');
  const [deviceName, setDeviceName] = useState('');
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState<null | 'save' | 'create' | 'sync' | 'pause'>(null);
  const [error, setError] = useState<unknown>(null);
  /** Whether `error` is the refusal of a folder's save or create: it describes the folder field then. */
  const [folderRefused, setFolderRefused] = useState(false);
  const [said, setSaid] = useState<{ words: string; warn: boolean } | null>(null);
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  /** The folder a save was refused for because it is not there yet (the folder it goes in is): it can be created. */
  const [missingFolder, setMissingFolder] = useState<string | null>(null);
  const saidNote = useRef<HTMLParagraphElement>(null);
  const pathField = useRef<HTMLInputElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  /**
   * Where the focus goes after the render that shows it, when the button pressed is gone once its
   * call is done (Create the folder): to what it said, or, refused, back to the folder field.
   */
  const setFocusTo = useFocusAfterRender({ said: () => saidNote.current, path: () => pathField.current ?? saveButton.current });
  useApiEvent('syncProgress', (payload) => {
    if (busy === 'sync') setProgress(payload);
  });

  // The saved settings fill the form in the render that first has them, not in an effect after
  // it: what is typed between that render and the effect would be overwritten.
  if (current && !loaded) {
    const shown = fieldsOf(current);
    setKind(shown.kind);
    setFields(shown.fields);
    setPathStyle(shown.pathStyle);
    setDeviceName(current.deviceName);
    setLoaded(true);
  }

  // Buttons stay enabled while a call runs (aria-disabled, the call ignored): a focused button that
  // became disabled would drop the keyboard's focus to the page.
  /** Runs one call: 'done', 'refused', or 'ignored' while another runs. */
  const run = async (what: 'save' | 'create' | 'sync' | 'pause', call: () => Promise<{ state: SyncState; message: string; warnings?: string[] }>): Promise<'done' | 'refused' | 'ignored'> => {
    if (busy !== null) return 'ignored';
    setBusy(what);
    setError(null);
    setFolderRefused(false);
    setSaid(null);
    try {
      const answer = await call();
      queryClient.setQueryData(syncKey, answer.state);
      setSaid({ words: answer.message, warn: (answer.warnings?.length ?? 0) > 0 });
      if (what === 'save' || what === 'create') setPassphrase('');
      setMissingFolder(null);
      return 'done';
    } catch (e) {
      setError(e);
      setFolderRefused((what === 'save' || what === 'create') && kind === 'folder');
      setMissingFolder(what === 'save' && kind === 'folder' && isApiError(e) && e.detail === SYNC_FOLDER_MISSING ? (fields['path'] ?? null) : null);
      return 'refused';
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const submit = (createFolder: boolean) => {
    const target = kind === 's3' ? { kind, ...fields, forcePathStyle: pathStyle } : { kind, ...fields };
    return run(createFolder ? 'create' : 'save', async () => ({
      state: await api.saveSync({ target, deviceName, ...(passphrase !== '' ? { passphrase } : {}), ...(createFolder ? { createFolder } : {}) }),
      message: createFolder ? 'Created the folder and saved: this device syncs there with this passphrase.' : 'Saved: this device syncs there with this passphrase.',
    }));
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };
  // Offered only for the folder the refusal named: one typed since is checked afresh by Save.
  const canCreate = missingFolder !== null && kind === 'folder' && fields['path'] === missingFolder;
  const field = (name: string, label: string, options: { secret?: boolean; kept?: boolean; hint?: string; placeholder?: string } = {}) => (
    <div className="field" key={`${kind}-${name}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type={options.secret ? 'password' : 'text'}
        autoComplete={options.secret ? 'new-password' : 'off'}
        spellCheck={false}
        value={fields[name] ?? ''}
        placeholder={options.kept ? 'Kept (leave empty to keep it)' : options.placeholder}
        onChange={(e) => setFields({ ...fields, [name]: e.target.value })}
        {...(name === 'path' ? { ref: pathField, 'aria-describedby': folderRefused && error !== null && kind === 'folder' ? `${id}-error` : undefined } : {})}
        data-testid={`sync-${name}`}
      />
    </div>
  );
  const target = current?.target;
  const status = current?.status;

  return (
    <section className="card sync-setting" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Sync between your devices</h2>
      <ErrorText error={state.error} />
      {current && (
        <div role="status" aria-live="polite" data-testid="sync-status">
          {target ? (
            <p className="small">
              Syncs to {current.describe}
              {current.paused ? ' (paused on this device)' : ''}.
            </p>
          ) : (
            <p className="small">Not set up: this memory is on this computer only.</p>
          )}
          {status && target && (
            <ul className="small">
              <li>Last sync: {status.lastSync ? formatInstant(status.lastSync, format) : 'not yet'}</li>
              <li>
                Devices seen:{' '}
                {status.devices.length === 0
                  ? 'none yet'
                  : status.devices.map((device) => `${device.name}${device.lastSeen ? ` (${formatInstant(device.lastSeen, format)})` : ''}`).join(', ')}
              </li>
              <li>
                Not yet sent: {plural(status.unsent, 'record')}
              </li>
            </ul>
          )}
          {status && target && status.blocked.length > 0 && (
            <div className="warning small sync-blocked" data-testid="sync-blocked">
              <p>Changes waiting from {plural(status.blocked.length, 'device')}; the other devices still sync.</p>
              <ul>
                {status.blocked.map((device) => (
                  <li key={device.id}>
                    <strong>{device.name ?? `A device not seen here yet (${device.id.slice(0, 8)})`}</strong>, since {formatInstant(device.since, format)}: {device.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {status && target && status.devices.some((device) => sameName(device.name, current.deviceName)) && (
            <p className="warning small" data-testid="sync-same-name">
              Another device that syncs here is also named “{current.deviceName}”: give this one a name of its own below, so you can tell them apart.
            </p>
          )}
          {current.note && <p className="muted small">{current.note}</p>}
        </div>
      )}
      {busy === 'sync' && progress && progress.total > 0 && (
        <div className="sync-progress small" data-testid="sync-progress">
          <progress max={progress.total} value={progress.done} aria-label="Sync progress" />{' '}
          <span role="status">{capitalise(syncProgressWords(progress, plural))}</span>
        </div>
      )}
      {current && (
        <form className="sync-form" onSubmit={save} aria-label="Where to sync">
          <div className="field">
            <label htmlFor={`${id}-kind`}>Sync through</label>
            <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as Kind)} data-testid="sync-kind">
              {KINDS.map((option) => (
                <option key={option.kind} value={option.kind}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          {kind === 'folder' && field('path', 'Folder (full path)', { placeholder: '/home/me/Sync/tempora' })}
          {kind === 'webdav' && (
            <>
              {field('url', 'WebDAV address', { placeholder: 'https://cloud.example/remote.php/dav/files/me/tempora' })}
              {field('username', 'User name')}
              {field('password', 'Password', { secret: true, kept: target?.kind === 'webdav' && target.hasPassword })}
            </>
          )}
          {kind === 's3' && (
            <>
              {field('endpoint', 'Endpoint (empty for AWS)', { placeholder: 'http://nas.local:9000' })}
              {field('region', 'Region', { placeholder: 'us-east-1' })}
              {field('bucket', 'Bucket')}
              {field('prefix', 'Folder in the bucket', { placeholder: 'tempora/' })}
              {field('accessKeyId', 'Access key')}
              {field('secretAccessKey', 'Secret key', { secret: true, kept: target?.kind === 's3' && target.hasSecret })}
              <label className="checkbox">
                <input type="checkbox" checked={pathStyle} onChange={(e) => setPathStyle(e.target.checked)} /> Path-style addresses (MinIO and most self-hosted stores)
              </label>
            </>
          )}
          <div className="field">
            <label htmlFor={`${id}-passphrase`}>Sync passphrase</label>
            <input
              id={`${id}-passphrase`}
              type="password"
              autoComplete="new-password"
              value={passphrase}
              placeholder={current.keyKept ? 'A key from it is kept (type it only to change)' : 'The same on every device'}
              onChange={(e) => setPassphrase(e.target.value)}
              aria-describedby={`${id}-passphrase-hint`}
              data-testid="sync-passphrase"
            />
            <p id={`${id}-passphrase-hint`} className="muted small">
              Everything is encrypted with it before it leaves this computer. It is never shown again; only a key made from it is kept,{' '}
              {current.keyStore === 'keychain' ? 'in this system’s keychain' : 'in a file only you can read in the data folder'}. Without it, the synced copy cannot be read.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-device`}>This device’s name</label>
            <input id={`${id}-device`} type="text" value={deviceName} onChange={(e) => setDeviceName(e.target.value)} data-testid="sync-device-name" />
          </div>
          <div className="form-row">
            <button type="submit" ref={saveButton} aria-disabled={busy !== null} data-testid="sync-save">
              {busy === 'save' ? 'Checking…' : 'Save'}
            </button>
            {/* Before a target is kept there is nothing to sync or pause: the status above says it is not set up. */}
            {target && (
              <>
                <button type="button" disabled={current.paused} aria-disabled={busy !== null} onClick={() => void run('sync', () => api.syncNow({}))} data-testid="sync-now">
                  {busy === 'sync' ? 'Syncing…' : 'Sync now'}
                </button>
                <button
                  type="button"
                  aria-disabled={busy !== null}
                  onClick={() =>
                    void run('pause', async () => ({
                      state: await api.setSyncPaused({ paused: !current.paused }),
                      message: current.paused ? 'Sync resumed on this device.' : 'Sync paused on this device.',
                    }))
                  }
                  data-testid="sync-pause"
                >
                  {current.paused ? 'Resume' : 'Pause'}
                </button>
              </>
            )}
          </div>
        </form>
      )}
      {said &&
        (said.warn ? (
          <p className="warning small" role="alert" data-testid="sync-said" ref={saidNote} tabIndex={-1}>
            {said.words}
          </p>
        ) : (
          <p className="note small" role="status" data-testid="sync-said" ref={saidNote} tabIndex={-1}>
            {said.words}
          </p>
        ))}
      <ErrorText error={error} id={`${id}-error`} />
      {canCreate && (
        <div className="form-row">
          <button
            type="button"
            aria-disabled={busy !== null}
            onClick={() => {
              // The button is gone once its call is done or refused: the focus goes to what it said, or back to the field.
              void submit(true).then((outcome) => outcome !== 'ignored' && setFocusTo(outcome === 'done' ? 'said' : 'path'));
            }}
            data-testid="sync-create-folder"
          >
            {busy === 'create' ? 'Creating…' : 'Create the folder'}
          </button>
        </div>
      )}
    </section>
  );
}

function capitalise(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Names told apart as a person would: spaces around and case aside. */
function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

/**
 * The time-zone setting: the zone every time is shown and read in, where that choice comes from,
 * a field to pick another (any IANA zone this browser knows, or a fixed offset like +09:00), and
 * "Use system zone" to go back to the default. A change is stored by main (setTimeZone); the
 * settings answer is replaced and the facts are fetched again. A refused change is kept as the
 * error (in the setting's words), so ErrorText says its kind: busy as busy. Its buttons wait with
 * aria-disabled, and after a change the focus is in the zone field (the button pressed may be gone).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TimeSettings } from '../../../shared/api-contract';
import { ErrorText } from '../common/ErrorText';
import { inFormWords } from '../common/field-error';
import { useApi } from '../app/api-context';
import { memoryKeys, settingsKeys } from '../app/query-keys';
import { useTimeSettings } from '../app/time-format';

const SOURCE: Record<TimeSettings['source'], string> = {
  setting: 'your setting',
  environment: 'the TEMPORA_TZ environment variable',
  system: 'this computer’s zone',
};

function knownZones(): string[] {
  try {
    const zones = Intl.supportedValuesOf('timeZone');
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}

export function TimeZoneSetting() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useTimeSettings();
  const id = useId();
  const zones = useMemo(knownZones, []);
  const current = settings.data;
  const [zone, setZone] = useState(current?.timeZone ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // A zone saved (here or elsewhere) shows in the render that has it, not in an effect after it,
  // which would overwrite what was typed in between.
  const [showing, setShowing] = useState(current);
  if (current && current !== showing) {
    setShowing(current);
    setZone(current.timeZone);
  }

  const choose = async (timeZone: string | null) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const next = await api.setTimeZone({ timeZone });
      queryClient.setQueryData(settingsKeys.time, next);
      await Promise.all([queryClient.invalidateQueries({ queryKey: settingsKeys.time }), queryClient.invalidateQueries({ queryKey: memoryKeys.all })]);
    } catch (e) {
      setError(inFormWords(e, { timeZone: 'Zone' }));
    } finally {
      setBusy(false);
      field.current?.focus();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = zone.trim();
    if (wanted !== '' && wanted !== current?.timeZone) void choose(wanted);
  };

  return (
    <form className="card time-zone-setting" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Time zone</h2>
      {current ? (
        <p className="muted small" data-testid="time-zone-current">
          Times are shown and read in <strong>{current.timeZone}</strong>, from {SOURCE[current.source]}.
          {current.ignoredEnvironment !== null && (
            <span data-testid="time-zone-ignored"> The TEMPORA_TZ environment variable is set to “{current.ignoredEnvironment}”, which is not a time zone: it is ignored.</span>
          )}
        </p>
      ) : (
        <ErrorText error={settings.error} />
      )}
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-zone`}>Zone</label>
          <input ref={field} id={`${id}-zone`} list={`${id}-zones`} value={zone} onChange={(e) => setZone(e.target.value)} placeholder="Asia/Tokyo" spellCheck={false} autoComplete="off" />
          <datalist id={`${id}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
        <button type="submit" className="primary" disabled={zone.trim() === '' || zone.trim() === current?.timeZone} aria-disabled={busy}>
          Use this zone
        </button>
      </div>
      {current && current.source === 'setting' && (
        <div className="form-actions">
          <button type="button" aria-disabled={busy} onClick={() => void choose(null)}>
            Use system zone
          </button>
          <span className="muted small">this computer’s is {current.systemTimeZone} (TEMPORA_TZ wins when it is set)</span>
        </div>
      )}
      <ErrorText error={error} />
    </form>
  );
}

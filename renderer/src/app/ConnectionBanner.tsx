/** A clear banner whenever the page is not connected to the Tempora core (bridge transport). */
import { useEffect, useState } from 'react';
import { useClient, useConnection } from './api-context';

export function ConnectionBanner() {
  const state = useConnection();
  const { retry } = useClient();
  const [now, setNow] = useState(Date.now());
  const [everOpen, setEverOpen] = useState(false);
  useEffect(() => {
    if (state.kind === 'open') setEverOpen(true);
    if (state.kind !== 'closed') return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [state]);

  if (state.kind === 'open') return null;
  if (state.kind === 'connecting' && !everOpen && state.attempt === 0) return null;
  let text: string;
  switch (state.kind) {
    case 'no-token':
      text = 'Not connected: this page needs the address that `tempora serve` printed (it carries an access token).';
      break;
    case 'refused':
      text = state.reason;
      break;
    case 'connecting':
      text = 'Reconnecting to Tempora…';
      break;
    case 'closed': {
      const seconds = Math.max(0, Math.ceil((state.retryAt - now) / 1000));
      text = `Disconnected from Tempora (${state.reason}). Retrying in ${seconds} s.`;
      break;
    }
  }
  return (
    <div className="connection-banner" role="alert">
      <span>{text}</span>
      {state.kind === 'closed' && (
        <button type="button" onClick={retry}>
          Retry now
        </button>
      )}
    </div>
  );
}

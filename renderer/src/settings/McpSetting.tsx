/**
 * The MCP setting (desktop app): a checkbox, off by default, that lets other agents on this
 * computer use the memory over MCP (Streamable HTTP on 127.0.0.1). When on it shows the URL and
 * the `Authorization: Bearer TOKEN` header to paste into the other agent, each with a copy button;
 * both stay the same across restarts until the user asks for a new token (rotateMcpToken, after a
 * confirmation: the old one stops working at once). What main says about this start (the kept port
 * was taken, so the URL changed) is shown as a note. Main keeps the choice (setMcpEnabled). In a
 * browser (`tempora serve`, whose status says the switch is not here) the card says instead, as a
 * note, where that server serves MCP itself (this page's address + /mcp, with the token it printed),
 * pointing at no switch.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { McpStatus } from '../../../shared/api-contract';
import { ErrorText } from '../common/ErrorText';
import { useApi } from '../app/api-context';
import { settingsKeys } from '../app/query-keys';

export function McpSetting() {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  const status = useQuery<McpStatus>({ queryKey: settingsKeys.mcp, queryFn: () => api.mcpStatus({}), staleTime: Infinity, retry: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const [confirming, setConfirming] = useState(false);
  const current = status.data;

  const change = async (call: () => Promise<McpStatus>) => {
    setBusy(true);
    setError(null);
    try {
      queryClient.setQueryData(settingsKeys.mcp, await call());
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const toggle = (enabled: boolean) => change(() => api.setMcpEnabled({ enabled }));
  const rotate = () => change(() => api.rotateMcpToken({}));

  return (
    <section className="card mcp-setting" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Other agents (MCP)</h2>
      {current?.unavailable ? (
        <p className="muted small" data-testid="mcp-note">
          Here in the browser, <code>tempora serve</code> itself lets other local agents use this memory over MCP (Streamable HTTP) at <code>{window.location.origin}/mcp</code>, with the token it printed when it started.
        </p>
      ) : current ? (
        <label className="checkbox">
          <input type="checkbox" checked={current.enabled} disabled={busy} onChange={(e) => void toggle(e.target.checked)} data-testid="mcp-enabled" /> Let other local agents use this memory (MCP)
        </label>
      ) : (
        <ErrorText error={status.error} />
      )}
      {current?.enabled && current.url && current.token && (
        <>
          <CopyField label="URL" value={current.url} testId="mcp-url" />
          <CopyField label="Header" value={`Authorization: Bearer ${current.token}`} testId="mcp-header" />
          {current.notice && (
            <p className="note small" role="status" data-testid="mcp-notice">
              {current.notice}
            </p>
          )}
          <p className="muted small">
            Add this as a Streamable HTTP MCP server in the other agent, with this header. Only this computer can reach it. The address and token stay the same when the app restarts.
          </p>
          {confirming ? (
            <div className="form-row" role="group" aria-label="Replace the MCP token">
              <p className="small">Agents that use the current token stop working at once, until they are given the new one.</p>
              <button type="button" disabled={busy} onClick={() => void rotate()} data-testid="mcp-rotate-confirm">
                Replace the token
              </button>
              <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" disabled={busy} onClick={() => setConfirming(true)} data-testid="mcp-rotate">
              New token…
            </button>
          )}
        </>
      )}
      <ErrorText error={error} />
    </section>
  );
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard permission (the app denies permissions): the selected text is copied instead.
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="form-row">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} ref={input} readOnly value={value} spellCheck={false} onFocus={(e) => e.target.select()} data-testid={testId} />
      </div>
      <button type="button" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

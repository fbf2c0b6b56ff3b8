/**
 * Settings → Connect an agent: the agents Tempora can add itself to (Claude Desktop, Cursor, VS Code,
 * LM Studio, Jan), as found on this computer — each with its config file, whether Tempora is in it,
 * and the entry Connect writes: stdio (the agent starts the installed `tempora mcp`) or HTTP (the
 * app's MCP with its kept address and token, when it is on above; in the browser, over `tempora
 * serve`, there is no such address to write, so that way is off with one sentence why). Connect and Remove say the file
 * and where the old one is kept; a client not installed, a config that is not JSON (never
 * overwritten) or HTTP where a client takes none are said in words, with the button off. Main reads
 * and writes the files (agentClients, connectAgent, disconnectAgent), as `tempora mcp connect` does.
 * On macOS and Windows the app also offers to put the `tempora` command on the PATH (putCommandOnPath).
 * A failed call is kept as the error itself, so ErrorText says its kind (a busy refusal as busy).
 * After Connect or Remove (whose button is then off or gone) the focus goes to what the row says.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { AgentClient, McpClientId, McpStatus, McpWay } from '../../../shared/api-contract';
import { useApi } from '../app/api-context';
import { settingsKeys } from '../app/query-keys';
import { ErrorText } from '../common/ErrorText';
import { useFocusAfterRender } from '../common/form-focus';

/** What an action said: main's message when it worked, else the error it failed with. */
type Said = { ok: true; message: string } | { ok: false; error: unknown };

const STATE_WORDS: Record<AgentClient['current'], string> = {
  none: 'not connected',
  stdio: 'connected (stdio)',
  http: 'connected (HTTP)',
  other: 'has another Tempora entry',
};

export function AgentConnect() {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  // The HTTP entries carry the app's address and token: asked again when MCP is turned on or off, or the token replaced.
  const mcp = useQuery<McpStatus>({ queryKey: settingsKeys.mcp, queryFn: () => api.mcpStatus({}), staleTime: Infinity, retry: false });
  const key = ['settings', 'agents', mcp.data?.enabled ?? false, mcp.data?.url ?? null, mcp.data?.token ?? null] as const;
  const agents = useQuery({ queryKey: key, queryFn: () => api.agentClients({}), retry: false });
  // In the browser (the status says the app's switch is not here) only the stdio entry can be written.
  const httpHere = mcp.data?.unavailable === undefined;
  const [chosen, setWay] = useState<McpWay>('stdio');
  const way: McpWay = httpHere ? chosen : 'stdio';
  const [busy, setBusy] = useState<McpClientId | null>(null);
  const [said, setSaid] = useState<(Said & { client: McpClientId }) | null>(null);

  const change = async (client: McpClientId, call: () => Promise<{ client: AgentClient; message: string }>) => {
    setBusy(client);
    setSaid(null);
    try {
      const result = await call();
      queryClient.setQueryData(key, (old: { clients: AgentClient[] } | undefined) => old && { clients: old.clients.map((c) => (c.client === client ? result.client : c)) });
      setSaid({ client, ok: true, message: result.message });
    } catch (e) {
      setSaid({ client, ok: false, error: e });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card agent-connect" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Connect an agent</h2>
      <p className="muted small">Adds Tempora to another agent’s MCP config on this computer. The old file is kept beside it, only Tempora’s entry changes (comments stay), and a file that is not JSON is never changed. Restart the agent afterwards.</p>
      <fieldset className="agent-way">
        <legend>How the agent reaches Tempora</legend>
        <label className="checkbox">
          <input type="radio" name={`${id}-way`} value="stdio" checked={way === 'stdio'} onChange={() => setWay('stdio')} data-testid="agent-way-stdio" /> It starts the tempora command (stdio)
        </label>
        <label className={httpHere ? 'checkbox' : 'checkbox muted'}>
          <input
            type="radio"
            name={`${id}-way`}
            value="http"
            checked={way === 'http'}
            disabled={!httpHere}
            aria-describedby={httpHere ? undefined : `${id}-no-http`}
            onChange={() => setWay('http')}
            data-testid="agent-way-http"
          />{' '}
          {httpHere ? 'Over HTTP, with the address and token above' : 'Over HTTP'}
        </label>
        {!httpHere && (
          <p className="muted small" id={`${id}-no-http`}>
            Only in the desktop app: <code>tempora serve</code> makes a new MCP token each time it starts, so an entry written with it would stop working.
          </p>
        )}
      </fieldset>
      <ErrorText error={agents.error} />
      <ul className="agent-list">
        {agents.data?.clients.map((client) => (
          <AgentRow
            key={client.client}
            client={client}
            way={way}
            busy={busy !== null}
            said={said?.client === client.client ? said : null}
            onConnect={() => change(client.client, () => api.connectAgent({ client: client.client, way }))}
            onRemove={() => change(client.client, () => api.disconnectAgent({ client: client.client }))}
          />
        ))}
      </ul>
      {agents.data?.commandOnPath && <CommandOnPath dir={agents.data.commandOnPath.dir} />}
    </section>
  );
}

/** "Put tempora on the PATH" (the app on macOS and Windows): the command in a terminal, and for agents that start it by name. */
function CommandOnPath({ dir }: { dir: string }) {
  const api = useApi();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said | null>(null);
  const put = async () => {
    setBusy(true);
    setSaid(null);
    try {
      setSaid({ ok: true, message: (await api.putCommandOnPath({})).message });
    } catch (e) {
      setSaid({ ok: false, error: e });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="agent-row command-on-path" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>The tempora command</h3>
      <p className="muted small">
        Puts <code>tempora</code> in <code>{dir}</code>, so a terminal (and an agent that starts it by name) finds it.
      </p>
      <div className="form-actions">
        <button type="button" disabled={busy} onClick={() => void put()} data-testid="command-on-path">
          Put tempora on the PATH
        </button>
      </div>
      {said && !said.ok && <ErrorText error={said.error} />}
      {said?.ok && (
        <p className="note small" role="status" data-testid="command-on-path-said">
          {said.message}
        </p>
      )}
    </div>
  );
}

interface RowProps {
  client: AgentClient;
  way: McpWay;
  busy: boolean;
  said: Said | null;
  onConnect(): Promise<void>;
  onRemove(): Promise<void>;
}

function AgentRow({ client, way, busy, said, onConnect, onRemove }: RowProps) {
  const id = useId();
  const entry = way === 'http' ? client.entries.http : client.entries.stdio;
  const why = client.problem ?? (entry === null ? client.httpNote : null);
  const state = client.installed ? STATE_WORDS[client.current] : 'not installed';
  // What Connect or Remove said takes the focus: the button pressed is off (Connected) or gone (Remove).
  const saidRef = useRef<HTMLDivElement>(null);
  const setFocusTo = useFocusAfterRender({ said: () => saidRef.current });
  const act = (call: () => Promise<void>) => () => void call().then(() => setFocusTo('said'));
  return (
    <li className="agent-row" aria-labelledby={`${id}-title`} data-testid={`agent-${client.client}`}>
      <div className="agent-head">
        <h3 id={`${id}-title`}>{client.title}</h3>
        <span className={client.current === 'none' || !client.installed ? 'badge' : 'badge ok'} data-testid="agent-state">
          {state}
        </span>
      </div>
      <p className="small agent-file">
        <span className="muted">Config file: </span>
        <code>{client.file}</code>
      </p>
      {why ? (
        <p className="warning small" data-testid="agent-problem">
          {why}
        </p>
      ) : (
        <>
          <p className="muted small" id={`${id}-entry`}>
            {client.current === way ? 'The entry in its config:' : 'The entry Connect adds:'}
          </p>
          <pre className="agent-entry" aria-labelledby={`${id}-entry`} tabIndex={0} data-testid="agent-entry">
            {entry}
          </pre>
        </>
      )}
      <div className="form-actions">
        {client.installed && (
          <button type="button" className="primary" disabled={busy || why !== null || client.current === way} onClick={act(onConnect)} data-testid="agent-connect">
            {client.current === 'none' ? 'Connect' : client.current === way ? 'Connected' : 'Replace the entry'}
          </button>
        )}
        {client.installed && client.current !== 'none' && client.problem === null && (
          <button type="button" disabled={busy} onClick={act(onRemove)} data-testid="agent-remove">
            Remove
          </button>
        )}
      </div>
      <div ref={saidRef} tabIndex={-1} className="agent-said">
        {said && !said.ok && <ErrorText error={said.error} />}
        {said?.ok && (
          <p className="note small" role="status" data-testid="agent-said">
            {said.message}
          </p>
        )}
      </div>
    </li>
  );
}

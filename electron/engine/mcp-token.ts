/**
 * The desktop app's MCP bearer token, made once and kept in the data directory (mcp-token) so the
 * header pasted into another agent keeps working across restarts. The file is readable by its
 * owner alone (0600, tightened again when found looser) and written whole (a temporary file
 * renamed over it), so a crash never leaves half a token. A file that holds no token in our shape
 * (emptied, edited) is replaced by a new one. No electron import: plain Node. Here in the engine so
 * that `tempora mcp connect --http` reads the same token the app serves (electron/main/mcp-service.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MCP_TOKEN_FILE = 'mcp-token';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const OWNER_ONLY = 0o600;

/** The kept token, made and written now when there is none (or none in our shape). */
export function readOrMakeToken(dataDir: string): string {
  const file = join(dataDir, MCP_TOKEN_FILE);
  let kept: string | null = null;
  try {
    kept = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (kept === null || !TOKEN_SHAPE.test(kept)) return writeNewToken(dataDir);
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY);
  return kept;
}

/** A new token, written in place of the old one (which no longer counts once this returns). */
export function writeNewToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, MCP_TOKEN_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${token}\n`, { mode: OWNER_ONLY });
  chmodSync(partial, OWNER_ONLY); // the mode above is masked by the umask; this is not
  renameSync(partial, file);
  return token;
}

/** The path the app serves MCP at (electron/mcp's MCP_PATH; the engine does not import the faces). */
const APP_MCP_PATH = '/mcp';

/**
 * The desktop app's MCP over HTTP as another agent is given it, from what the app keeps (the port in
 * the memory's settings, the token in the data directory), or why there is none yet, in words.
 */
export function keptMcpAddress(dataDir: string, settings: { mcpEnabled: boolean; mcpPort: number | null }): { url: string; token: string } | string {
  if (!settings.mcpEnabled || settings.mcpPort === null) {
    return 'The desktop app’s MCP over HTTP is off: turn it on in Settings → Other agents (MCP) (its address and token stay from then on), then try again.';
  }
  return { url: `http://127.0.0.1:${settings.mcpPort}${APP_MCP_PATH}`, token: readOrMakeToken(dataDir) };
}

/**
 * What sync keeps secret on this device: the key made from the passphrase (never the passphrase)
 * and the target's own secret (a WebDAV password, an S3 secret key), with the target they belong
 * to. One owner-only file in the data folder (sync-secrets, 0600, tightened again when found looser,
 * written whole: a temporary renamed over it, as mcp-token.ts keeps the MCP token), its content
 * sealed by the system's keychain when the face can reach one (Electron's safeStorage, passed in by
 * electron/main; this module imports no electron). Never logged, never exported.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SYNC_SECRETS_FILE = 'sync-secrets';
const OWNER_ONLY = 0o600;

/** The system's keychain as the face offers it (Electron: safeStorage.encryptString / decryptString). */
export interface SecretSealer {
  seal(text: string): Buffer;
  open(sealed: Buffer): string;
}

export interface SyncSecrets {
  /** Which target they belong to (its config without secrets, as JSON): a key for another target is no key. */
  target: string;
  /** base64 of the 32-byte key; null: none kept. */
  key: string | null;
  /** The target's password or secret key ('' for none). */
  targetSecret: string;
}

export class SyncSecretStore {
  constructor(
    private readonly dataDir: string,
    private readonly sealer: SecretSealer | null = null,
  ) {}

  get where(): 'keychain' | 'file' {
    return this.sealer ? 'keychain' : 'file';
  }

  read(): SyncSecrets | null {
    const file = join(this.dataDir, SYNC_SECRETS_FILE);
    let raw: Buffer;
    try {
      raw = readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY);
    try {
      const text = raw.subarray(0, 7).toString() === 'sealed:' ? this.sealer?.open(raw.subarray(7)) : raw.toString('utf8');
      if (text === undefined) return null;
      const parsed = JSON.parse(text) as SyncSecrets;
      return typeof parsed.target === 'string' && typeof parsed.targetSecret === 'string' ? parsed : null;
    } catch {
      return null; // unreadable (another keychain, edited): as if none were kept
    }
  }

  write(secrets: SyncSecrets): void {
    mkdirSync(this.dataDir, { recursive: true });
    const file = join(this.dataDir, SYNC_SECRETS_FILE);
    const text = JSON.stringify(secrets);
    const body = this.sealer ? Buffer.concat([Buffer.from('sealed:'), this.sealer.seal(text)]) : Buffer.from(text);
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, body, { mode: OWNER_ONLY });
    chmodSync(partial, OWNER_ONLY);
    renameSync(partial, file);
  }

  clear(): void {
    rmSync(join(this.dataDir, SYNC_SECRETS_FILE), { force: true });
  }
}

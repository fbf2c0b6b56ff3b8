/**
 * End-to-end encryption of everything Tempora puts on a sync target: the target holds only
 * ciphertext. The key comes from the user's passphrase through scrypt (memory-hard: N = 2^17, r = 8,
 * p = 1, so 128 MiB and about half a second per derivation; 32 bytes), salted by 16 random bytes
 * kept on the target in a small `keycheck` file with the KDF figures and a known value sealed by the
 * key, so a wrong passphrase is said in words before anything is read or applied.
 *
 * A sealed file is: a version byte (1), a random 24-byte nonce, then XChaCha20-Poly1305
 * (@noble/ciphers) ciphertext and its 16-byte tag; the associated data is the version byte and the
 * file's name, so a file renamed or moved to another name is refused like one changed. A file that
 * is empty, cut short, changed or from a newer format is refused by a SyncCryptoError naming it.
 */
import { randomBytes, scrypt } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import type { SyncTarget } from './sync-target';
import { SyncTargetError } from './sync-target';

export const KEYCHECK_FILE = 'keycheck';
const FORMAT = 1;
const NONCE = 24;
const TAG = 16;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt's figures for a new key check: N = 2^17, r = 8, p = 1 (128 MiB). */
export const SCRYPT_DEFAULTS = { logN: 17, r: 8, p: 1 } as const;
const KEYCHECK_MAGIC = new TextEncoder().encode('TMPK');
const KNOWN_VALUE = new TextEncoder().encode('Tempora sync key check, format 1');
/** What a wrong passphrase is, in every face; each says how to give the right one (the app: its passphrase field). */
export const PASSPHRASE_DOES_NOT_OPEN = 'This passphrase does not open this sync target: it was set up with another one.';
export const WRONG_PASSPHRASE = `${PASSPHRASE_DOES_NOT_OPEN} Type the passphrase your other devices sync with.`;
export const SHORTEST_PASSPHRASE = 8;

export class SyncCryptoError extends Error {
  constructor(
    readonly kind: 'wrong-passphrase' | 'refused' | 'newer-format' | 'bad-passphrase',
    /** The file it is about ('' for none). */
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'SyncCryptoError';
  }
}

/** What segments and every other synced file are sealed and opened with. */
export interface SyncCipher {
  seal(name: string, bytes: Uint8Array): Uint8Array;
  open(name: string, bytes: Uint8Array): Uint8Array;
}

export interface ScryptFigures {
  logN: number;
  r: number;
  p: number;
}

/** The 32-byte key of a passphrase and salt (scrypt, run off the main thread by libuv). */
export function deriveSyncKey(passphrase: string, salt: Uint8Array, figures: ScryptFigures = SCRYPT_DEFAULTS): Promise<Uint8Array> {
  const N = 2 ** figures.logN;
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, { N, r: figures.r, p: figures.p, maxmem: 256 * N * figures.r }, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    );
  });
}

export function cipherFromKey(key: Uint8Array): SyncCipher {
  if (key.byteLength !== KEY_BYTES) throw new SyncCryptoError('refused', '', `A sync key has ${KEY_BYTES} bytes, not ${key.byteLength}.`);
  return {
    seal(name, bytes) {
      const nonce = randomBytes(NONCE);
      const sealed = xchacha20poly1305(key, nonce, associated(name)).encrypt(bytes);
      const file = new Uint8Array(1 + NONCE + sealed.byteLength);
      file[0] = FORMAT;
      file.set(nonce, 1);
      file.set(sealed, 1 + NONCE);
      return file;
    },
    open(name, bytes) {
      if (bytes.byteLength === 0) throw new SyncCryptoError('refused', name, `The sync file ${name} is empty: it was cut short or never written whole.`);
      if (bytes[0]! > FORMAT)
        throw new SyncCryptoError('newer-format', name, `The sync file ${name} was sealed by a newer Tempora (format ${bytes[0]}); update Tempora on this device to read it.`);
      if (bytes[0] !== FORMAT || bytes.byteLength < 1 + NONCE + TAG)
        throw new SyncCryptoError('refused', name, `The sync file ${name} is not a sealed Tempora file, or it was cut short.`);
      try {
        return xchacha20poly1305(key, bytes.subarray(1, 1 + NONCE), associated(name)).decrypt(bytes.subarray(1 + NONCE));
      } catch {
        throw new SyncCryptoError(
          'refused',
          name,
          `The sync file ${name} does not open: it was changed, cut short or renamed, or sealed with another passphrase.`,
        );
      }
    },
  };
}

function associated(name: string): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const data = new Uint8Array(1 + nameBytes.byteLength);
  data[0] = FORMAT;
  data.set(nameBytes, 1);
  return data;
}

/** A key check for a new target: the salt, the figures and the known value sealed by the key. */
export async function makeKeyCheck(passphrase: string, figures: ScryptFigures = SCRYPT_DEFAULTS): Promise<{ key: Uint8Array; file: Uint8Array }> {
  if (passphrase.length < SHORTEST_PASSPHRASE)
    throw new SyncCryptoError('bad-passphrase', '', `The sync passphrase must have at least ${SHORTEST_PASSPHRASE} characters.`);
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveSyncKey(passphrase, salt, figures);
  const sealed = cipherFromKey(key).seal(KEYCHECK_FILE, KNOWN_VALUE);
  const file = new Uint8Array(KEYCHECK_MAGIC.byteLength + 4 + SALT_BYTES + sealed.byteLength);
  file.set(KEYCHECK_MAGIC, 0);
  file.set([FORMAT, figures.logN, figures.r, figures.p], KEYCHECK_MAGIC.byteLength);
  file.set(salt, KEYCHECK_MAGIC.byteLength + 4);
  file.set(sealed, KEYCHECK_MAGIC.byteLength + 4 + SALT_BYTES);
  return { key, file };
}

/** The key check's salt and figures, read and checked (a hostile file may not ask for 64 GiB). */
export function readKeyCheck(file: Uint8Array): { salt: Uint8Array; figures: ScryptFigures; sealed: Uint8Array } {
  const head = KEYCHECK_MAGIC.byteLength;
  if (file.byteLength < head + 4 + SALT_BYTES + 1 + NONCE + TAG || !KEYCHECK_MAGIC.every((byte, index) => file[index] === byte))
    throw new SyncCryptoError('refused', KEYCHECK_FILE, `The target's ${KEYCHECK_FILE} file is not a Tempora key check, or it was cut short.`);
  if (file[head]! > FORMAT)
    throw new SyncCryptoError('newer-format', KEYCHECK_FILE, `The target's ${KEYCHECK_FILE} was made by a newer Tempora (format ${file[head]}); update Tempora on this device.`);
  const figures = { logN: file[head + 1]!, r: file[head + 2]!, p: file[head + 3]! };
  if (figures.logN < 14 || figures.logN > 20 || figures.r < 1 || figures.r > 16 || figures.p < 1 || figures.p > 4)
    throw new SyncCryptoError('refused', KEYCHECK_FILE, `The target's ${KEYCHECK_FILE} asks for key figures Tempora does not use; it was changed.`);
  return { salt: file.slice(head + 4, head + 4 + SALT_BYTES), figures, sealed: file.subarray(head + 4 + SALT_BYTES) };
}

/** Whether a key opens a key check (a stored key checked against the target before a sync). */
export function keyOpensKeyCheck(key: Uint8Array, file: Uint8Array): boolean {
  const { sealed } = readKeyCheck(file);
  try {
    const known = cipherFromKey(key).open(KEYCHECK_FILE, sealed);
    return known.byteLength === KNOWN_VALUE.byteLength && known.every((byte, index) => byte === KNOWN_VALUE[index]);
  } catch {
    return false;
  }
}

/** The key of a passphrase for a key check found on a target; a wrong passphrase said in words. */
export async function keyFromKeyCheck(passphrase: string, file: Uint8Array): Promise<Uint8Array> {
  const { salt, figures } = readKeyCheck(file);
  const key = await deriveSyncKey(passphrase, salt, figures);
  if (!keyOpensKeyCheck(key, file)) throw new SyncCryptoError('wrong-passphrase', KEYCHECK_FILE, WRONG_PASSPHRASE);
  return key;
}

/**
 * The key for a target from the user's passphrase: the target's key check opened, or, on a target
 * that has none yet, one made and put there (read back, so when two devices start the same empty
 * target at once both end on the one that stayed). Nothing else on the target is touched.
 */
export async function unlockTarget(target: SyncTarget, passphrase: string, figures: ScryptFigures = SCRYPT_DEFAULTS): Promise<Uint8Array> {
  let found = await readKeyCheckFile(target);
  if (found === null) found = await keyCheckOfEmpty(target);
  if (found !== null) return keyFromKeyCheck(passphrase, found);
  const made = await makeKeyCheck(passphrase, figures);
  await target.put(KEYCHECK_FILE, made.file);
  const kept = await readKeyCheckFile(target);
  if (kept === null || keyOpensKeyCheck(made.key, kept)) return made.key;
  return keyFromKeyCheck(passphrase, kept);
}

/**
 * A target with no key check must hold nothing else: a folder of the user's own files (or the memory's
 * own directory) is not made a sync target, said in words, with nothing written there. A key check
 * another device put meanwhile (two starting the same empty target at once) is read and returned.
 */
async function keyCheckOfEmpty(target: SyncTarget): Promise<Uint8Array | null> {
  const files = await target.list('');
  if (files.some((f) => f.name === KEYCHECK_FILE)) return readKeyCheckFile(target);
  if (files.length === 0) return null;
  const shown = files.slice(0, 3).map((f) => f.name).join(', ') + (files.length > 3 ? ', …' : '');
  const where = target.describe.charAt(0).toUpperCase() + target.describe.slice(1);
  throw new SyncCryptoError(
    'refused',
    '',
    `${where} holds other files (${shown}) but no Tempora key check: it is not a sync target, and nothing was written there. Choose an empty folder, or the one your other devices sync to.`,
  );
}

/** The target's key check file; null where it has none. */
export async function readKeyCheckFile(target: SyncTarget): Promise<Uint8Array | null> {
  try {
    return await target.get(KEYCHECK_FILE);
  } catch (error) {
    if (error instanceof SyncTargetError && error.kind === 'missing') return null;
    throw error;
  }
}

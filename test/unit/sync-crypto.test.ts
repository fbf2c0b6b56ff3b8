/**
 * Sync encryption at its boundaries: a sealed file opens only as itself — one byte flipped in the
 * version, nonce, ciphertext or tag, one byte cut off, an empty file, a file under another name —
 * each refused by a SyncCryptoError naming the file, never a crash. The key check: a target's first
 * device makes it, the next opens it with the same passphrase to the same key, and a wrong
 * passphrase is said in words and changes nothing on the target.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cipherFromKey,
  deriveSyncKey,
  KEYCHECK_FILE,
  makeKeyCheck,
  readKeyCheck,
  SCRYPT_DEFAULTS,
  SyncCryptoError,
  unlockTarget,
  WRONG_PASSPHRASE,
} from '../../electron/sync/sync-crypto';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';

const temporary = mkdtempSync(join(tmpdir(), 'tempora-sync-crypto-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));
/** Lighter scrypt figures for the tests that are not about the figures (2^14: 16 MiB). */
const LIGHT = { logN: 14, r: 8, p: 1 };
const key = new Uint8Array(32).map((_, index) => index);
const cipher = cipherFromKey(key);
const name = 'devices/d1/segments/00000001-ab';
const plain = new TextEncoder().encode('Owen lives in Lisbon since 1 September 2026.');
let folders = 0;
const freshTarget = () => {
  const root = join(temporary, `target-${(folders += 1)}`);
  mkdirSync(root);
  return createFolderTarget(root);
};

function refusal(run: () => unknown): SyncCryptoError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SyncCryptoError);
    return error as SyncCryptoError;
  }
  throw new Error('expected a refusal');
}

describe('a sealed file', () => {
  const sealed = cipher.seal(name, plain);

  it('opens to what was sealed; its layout is version, 24-byte nonce, ciphertext, 16-byte tag', () => {
    expect(sealed[0]).toBe(1);
    expect(sealed.byteLength).toBe(1 + 24 + plain.byteLength + 16);
    expect(Buffer.from(cipher.open(name, sealed)).toString()).toBe(Buffer.from(plain).toString());
  });

  it('gets a fresh nonce each time: the same bytes sealed twice differ', () => {
    const again = cipher.seal(name, plain);
    expect(Buffer.from(again.subarray(1, 25)).equals(Buffer.from(sealed.subarray(1, 25)))).toBe(false);
  });

  it('is refused, by name, with one byte flipped anywhere: nonce, ciphertext or tag', () => {
    for (const index of [1, 24, 25, 25 + plain.byteLength - 1, 25 + plain.byteLength, sealed.byteLength - 1]) {
      const changed = sealed.slice();
      changed[index]! ^= 0x01;
      const error = refusal(() => cipher.open(name, changed));
      expect(error.kind).toBe('refused');
      expect(error.file).toBe(name);
      expect(error.message).toBe(`The sync file ${name} does not open: it was changed, cut short or renamed, or sealed with another passphrase.`);
    }
  });

  it('is refused when cut short by one byte, and when cut below a nonce and a tag', () => {
    expect(refusal(() => cipher.open(name, sealed.subarray(0, sealed.byteLength - 1))).file).toBe(name);
    const emptySealed = cipher.seal(name, new Uint8Array());
    expect(emptySealed.byteLength).toBe(41);
    expect(cipher.open(name, emptySealed).byteLength).toBe(0);
    expect(refusal(() => cipher.open(name, emptySealed.subarray(0, 40))).message).toBe(
      `The sync file ${name} is not a sealed Tempora file, or it was cut short.`,
    );
  });

  it('is refused when empty', () => {
    expect(refusal(() => cipher.open(name, new Uint8Array())).message).toBe(`The sync file ${name} is empty: it was cut short or never written whole.`);
  });

  it('is refused under another name: renamed or moved to another device', () => {
    for (const other of ['devices/d1/segments/00000002-ab', 'devices/d2/segments/00000001-ab']) {
      const error = refusal(() => cipher.open(other, sealed));
      expect(error.file).toBe(other);
    }
  });

  it('says a newer format is newer, and a version 0 is not ours', () => {
    const newer = sealed.slice();
    newer[0] = 2;
    const error = refusal(() => cipher.open(name, newer));
    expect(error.kind).toBe('newer-format');
    expect(error.message).toBe(`The sync file ${name} was sealed by a newer Tempora (format 2); update Tempora on this device to read it.`);
    const zero = sealed.slice();
    zero[0] = 0;
    expect(refusal(() => cipher.open(name, zero)).kind).toBe('refused');
  });

  it('does not open with another key', () => {
    const other = cipherFromKey(new Uint8Array(32).fill(7));
    expect(refusal(() => other.open(name, sealed)).file).toBe(name);
  });
});

describe('the key check', () => {
  it('uses scrypt N = 2^17, r = 8, p = 1 for a new target, kept in the file with a 16-byte salt', async () => {
    expect(SCRYPT_DEFAULTS).toEqual({ logN: 17, r: 8, p: 1 });
    const made = await makeKeyCheck('correct horse battery');
    const read = readKeyCheck(made.file);
    expect(read.figures).toEqual(SCRYPT_DEFAULTS);
    expect(read.salt.byteLength).toBe(16);
    expect(Buffer.from(await deriveSyncKey('correct horse battery', read.salt)).equals(Buffer.from(made.key))).toBe(true);
  });

  it('is made by the first device, and another device with the same passphrase gets the same key', async () => {
    const target = freshTarget();
    const first = await unlockTarget(target, 'correct horse battery', LIGHT);
    expect((await target.list('')).map((file) => file.name)).toEqual([KEYCHECK_FILE]);
    const second = await unlockTarget(target, 'correct horse battery', LIGHT);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const sealed = cipherFromKey(first).seal('devices/d1/head', plain);
    expect(cipherFromKey(second).open('devices/d1/head', sealed).byteLength).toBe(plain.byteLength);
  });

  it('says a wrong passphrase in words and changes nothing on the target', async () => {
    const target = freshTarget();
    await unlockTarget(target, 'correct horse battery', LIGHT);
    const before = Buffer.from(await target.get(KEYCHECK_FILE));
    const error = await unlockTarget(target, 'correct horse batterY', LIGHT).then(
      () => null,
      (caught: unknown) => caught as SyncCryptoError,
    );
    expect(error).toBeInstanceOf(SyncCryptoError);
    expect(error!.kind).toBe('wrong-passphrase');
    expect(error!.message).toBe(WRONG_PASSPHRASE);
    expect(error!.message).toBe('This passphrase does not open this sync target: it was set up with another one. Type the passphrase your other devices sync with.');
    expect(Buffer.from(await target.get(KEYCHECK_FILE)).equals(before)).toBe(true);
    expect((await target.list('')).map((file) => file.name)).toEqual([KEYCHECK_FILE]);
  });

  it('refuses a passphrase under 8 characters for a new target, writing nothing; 8 are enough', async () => {
    const target = freshTarget();
    const error = await unlockTarget(target, '1234567', LIGHT).then(
      () => null,
      (caught: unknown) => caught as SyncCryptoError,
    );
    expect(error?.message).toBe('The sync passphrase must have at least 8 characters.');
    expect(await target.list('')).toEqual([]);
    await unlockTarget(target, '12345678', LIGHT);
    expect(await target.list('')).toHaveLength(1);
  });

  it('refuses a key check that was changed, cut short, or asks for figures Tempora does not use', async () => {
    const { file } = await makeKeyCheck('correct horse battery', LIGHT);
    expect(refusal(() => readKeyCheck(file.subarray(0, 24))).file).toBe(KEYCHECK_FILE);
    const greedy = file.slice();
    greedy[5] = 30; // N = 2^30: a hostile file may not ask for a terabyte
    expect(refusal(() => readKeyCheck(greedy)).message).toBe("The target's keycheck asks for key figures Tempora does not use; it was changed.");
    const target = freshTarget();
    const changed = file.slice();
    changed[changed.byteLength - 1]! ^= 0x01;
    await target.put(KEYCHECK_FILE, changed);
    await expect(unlockTarget(target, 'correct horse battery', LIGHT)).rejects.toThrow(WRONG_PASSPHRASE);
  });
});

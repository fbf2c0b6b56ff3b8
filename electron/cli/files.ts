/** File access for the command: reads with clear errors, writes atomically (temp file + rename). */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from './errors';
import { describeJsonError } from '../../shared/json-position';
import { ENDS_MID_CHARACTER, endsMidCharacter, firstNotUtf8, lineOfByte } from '../../shared/utf8-text';
import { isUtf8 } from 'node:buffer';

/**
 * Reads a UTF-8 text file (path relative to `cwd`); a leading byte-order mark is dropped. A file in
 * another encoding (Shift_JIS, Latin-1) is refused naming the first line that is not UTF-8, never
 * read with replacement characters in place of what the user wrote.
 */
export function readTextFile(file: string, cwd: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(cwd, file));
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${describeFsError(error)}`);
  }
  if (!isUtf8(bytes)) {
    const where = `${file}:${lineOfByte(bytes, firstNotUtf8(bytes, { atEnd: true }))}`;
    // UTF-8 cut off mid-character is a file cut short, not one in another encoding.
    if (endsMidCharacter(bytes)) throw new InputError(`${where}: ${ENDS_MID_CHARACTER} (was it cut short?)`);
    throw new InputError(`${where}: not UTF-8 text (save the file as UTF-8)`);
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** Parses a whole file as JSON; `FILE: not JSON (...)` otherwise. */
export function readJsonFile(file: string, cwd: string): unknown {
  const text = readTextFile(file, cwd);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`${file}: not JSON (${describeJsonError(text, error)})`);
  }
}

/**
 * Writes `text` to `file` so that readers see either the old file or the whole new one: the text goes
 * to a temporary file beside it, is flushed to disk, and is renamed over the target.
 */
export function writeFileAtomic(file: string, text: string | Iterable<string>, cwd: string): void {
  const target = resolve(cwd, file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    // Pieces (an export of a large memory is longer than one string can be) are written as they come.
    for (const piece of typeof text === 'string' ? [text] : text) {
      const data = Buffer.from(piece, 'utf8');
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written, data.length - written);
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw new InputError(`cannot write ${file}: ${describeFsError(error)}`);
  }
}

/** "no such file or directory" rather than "ENOENT: no such file or directory, open '/abs/path'". */
export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a parent of it is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENAMETOOLONG':
      return 'its path is too long (a name in it, or the whole, is longer than the file system allows)';
    default:
      return e.message ?? String(error);
  }
}

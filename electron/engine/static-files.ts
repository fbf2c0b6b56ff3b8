/**
 * Files of the built renderer, for the loopback bridge (electron/server) and, for the content
 * types, Electron's app:// protocol (electron/main/protocol.ts) - here, below both, so that
 * neither imports the other:
 * maps a URL path to a file strictly inside the renderer directory, refusing anything that would
 * leave it (`..`, encoded or not, absolute paths, NUL bytes, symbolic links pointing outside).
 */
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The content type of a file, or undefined for a kind of file the renderer never has. */
export function contentTypeOf(file: string): string | undefined {
  return CONTENT_TYPES[extname(file).toLowerCase()];
}

/**
 * The file that a URL path (as in the request line, still percent-encoded, without the query)
 * names inside `rootDir`, or null when it would be outside it or cannot be decoded. Lexical only;
 * serveableFile() also resolves symbolic links.
 */
export function fileForUrlPath(rootDir: string, urlPath: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!pathname.startsWith('/') || pathname.includes('\0') || pathname.includes('\\')) return null;
  const base = resolve(rootDir);
  const file = resolve(base, `.${pathname}`);
  return isInside(base, file) ? file : null;
}

function isInside(base: string, file: string): boolean {
  const rel = relative(base, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * The real path of a regular file for `urlPath` under `rootDir`, with its content type, or null
 * (not found, a directory, outside the root after following links, or a type the renderer has not).
 */
export async function serveableFile(rootDir: string, urlPath: string): Promise<{ file: string; type: string; size: number } | null> {
  const candidate = fileForUrlPath(rootDir, urlPath);
  if (!candidate) return null;
  const type = contentTypeOf(candidate);
  if (!type) return null;
  try {
    const [realBase, realFile] = await Promise.all([realpath(rootDir), realpath(candidate)]);
    if (!isInside(realBase, realFile)) return null;
    const info = await stat(realFile);
    return info.isFile() ? { file: realFile, type, size: info.size } : null;
  } catch {
    return null;
  }
}

/**
 * One agent's MCP config file, read and written for agent-configs.ts: the servers' object in it, and
 * one server's entry put in, replaced or taken out. The files are JSON with comments (VS Code's
 * mcp.json, hand-edited Cursor files: `//` and `/* *\/` comments, trailing commas), read with
 * Microsoft's jsonc-parser; a file with a syntax error is refused naming its line and column.
 *
 * The entry is written by a minimal edit of the text: everything else — comments, trailing commas, the
 * other servers, their order and layout — stays byte for byte. jsonc-parser's own `modify` reformats
 * the whole lines around its edit (a one-line server beside ours was spread over several lines, and a
 * comment on its line moved onto ours), so the edit is placed here, on its parse tree and scanner:
 * a new entry goes after the last server and any comment on its line, in the file's indentation (tabs,
 * four spaces), line endings and comma style; a replaced one is its value only; a removed one takes
 * its comma with it and its lines when nothing else is on them, never a comment.
 *
 * The old file is copied beside itself first (NAME.TIME.bak), the new text is checked to parse back to
 * what was meant (the old config with only that entry changed), then written whole (a temporary file
 * renamed over it) with the old file's byte-order mark and permissions (a 0600 file holding another
 * server's key stays 0600). A file that does not parse, or is read-only, is never touched. No file, or
 * an empty one, gets a fresh file as the clients write it.
 */
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { applyEdits, createScanner, findNodeAtLocation, parse, parseTree, printParseErrorCode, type Edit, type Node, type ParseError, type SyntaxKind } from 'jsonc-parser';
import { lineAndColumn } from '../../shared/json-position';

/**
 * A refusal in words; nothing was changed. `kind` lets a face choose its exit code. `message` may
 * carry the parser's own words, for the command line; `sentence` is the same without them, for the
 * screen (one plain sentence).
 */
export class AgentConfigError extends Error {
  readonly sentence: string;
  constructor(
    message: string,
    readonly kind: 'unknown_client' | 'not_installed' | 'not_json' | 'no_http' | 'read_only',
    sentence?: string,
  ) {
    super(message);
    this.sentence = sentence ?? message;
  }
}

/** How a config file is written: as the user's file was, or as the clients write a new one. */
interface ConfigStyle {
  /** One level of indentation: the file's first (a tab, four spaces …), or two spaces. */
  indent: string;
  newline: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
  /** The permission bits of the old file (undefined for a new one: the umask's). */
  mode: number | undefined;
}

const NEW_FILE_STYLE: ConfigStyle = { indent: '  ', newline: '\n', bom: false, finalNewline: true, mode: undefined };

/** A config file as read: the object, its text (without a byte-order mark; null for none or an empty one) and its way. */
export interface ConfigFile {
  file: string;
  config: Record<string, unknown>;
  text: string | null;
  style: ConfigStyle;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const leftAlone = 'it was left as it is: fix it or move it away, then try again.';
const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false };

/** The first indentation in the text (a tab, four spaces …), or two spaces when it has none. */
function styleOf(text: string, mode: number): ConfigStyle {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { indent, newline: text.includes('\r\n') ? '\r\n' : '\n', bom: text.startsWith('\uFEFF'), finalNewline: /\n\s*$/.test(text), mode };
}

/** "close brace expected" for CloseBraceExpected. */
const inWords = (error: ParseError) => printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * The config file (an empty config when there is none, or it is empty) and the way it is written; a
 * file that does not parse, or whose root or servers' object (`key`) is not an object, is refused, and
 * so is one holding `key`, or the entry `name` in it, twice (an agent reads only one of them).
 */
export function readConfigFile(file: string, key: string, name: string): ConfigFile {
  if (!existsSync(file)) return { file, config: {}, text: null, style: NEW_FILE_STYLE };
  const mode = statSync(file).mode & 0o777;
  const raw = readFileSync(file, 'utf8');
  const style = styleOf(raw, mode);
  // A byte-order mark (Notepad writes one) is not part of the JSON: read without it, written back with it.
  const text = style.bom ? raw.slice(1) : raw;
  if (text.trim() === '') return { file, config: {}, text: null, style: { ...NEW_FILE_STYLE, mode } };
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, PARSE_OPTIONS);
  const [first] = errors;
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    const where = `line ${line}, column ${column}`;
    throw new AgentConfigError(`${file} is not JSON (${where}: ${inWords(first)}); ${leftAlone}`, 'not_json', `${file} is not JSON (${where}); ${leftAlone}`);
  }
  if (!isObject(parsed)) throw new AgentConfigError(`${file} is JSON but not an object; ${leftAlone}`, 'not_json');
  const servers = parsed[key];
  if (servers !== undefined && !isObject(servers)) throw new AgentConfigError(`${file}: "${key}" is not an object; ${leftAlone}`, 'not_json');
  refuseTwice(file, text, key, name);
  return { file, config: parsed, text, style };
}

/** Refuses `key` twice in the root, or `name` twice in the object `key` holds, naming the lines. */
function refuseTwice(file: string, text: string, key: string, name: string): void {
  const linesOf = (object: Node | undefined, wanted: string) =>
    (object?.children ?? []).filter((p) => p.children?.[0]?.value === wanted).map((p) => lineAndColumn(text, p.offset).line);
  const root = parseTree(text, [], PARSE_OPTIONS);
  const keys = linesOf(root, key);
  const names = keys.length > 1 || !root ? [] : linesOf(findNodeAtLocation(root, [key]), name);
  const said = keys.length > 1 ? `"${key}" twice (lines ${keys[0]} and ${keys[1]})` : names.length > 1 ? `"${name}" twice in "${key}" (lines ${names[0]} and ${names[1]})` : null;
  if (said !== null) {
    throw new AgentConfigError(`${file} has ${said}, and an agent reads only one of them; it was left as it is: make them one, then try again.`, 'not_json');
  }
}

/**
 * Puts `entry` in as `name` in the servers' object `key` (undefined: takes it out) and writes the
 * file; returns the copy of the old file (null when there was none). Read-only files are refused.
 */
export function writeServerEntry(read: ConfigFile, key: string, name: string, entry: Record<string, unknown> | undefined): string | null {
  const { file, config, text, style } = read;
  if (style.mode !== undefined && (style.mode & 0o200) === 0) {
    throw new AgentConfigError(`${file} is read-only; it was left as it is: make it writable, then try again.`, 'read_only');
  }
  const held = (config[key] ?? {}) as Record<string, unknown>;
  const { [name]: _old, ...others } = held;
  const servers = entry === undefined ? others : { ...held, [name]: entry };
  const meant = { ...config, [key]: servers };
  const refused = () => new AgentConfigError(`the new ${file} would not read back as written; nothing was changed.`, 'not_json');
  let body: string;
  try {
    body = text === null ? freshText(meant, style) : applyEdits(text, entryEdits(text, [key, name], entry, style));
  } catch {
    throw refused(); // an edit jsonc-parser could not place: nothing is written
  }
  const errors: ParseError[] = [];
  const readBack: unknown = parse(body, errors, PARSE_OPTIONS);
  if (errors.length > 0 || !sameJson(readBack, meant)) throw refused();
  let backup: string | null = null;
  if (existsSync(file)) {
    backup = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(file, backup);
  }
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${style.bom ? '\uFEFF' : ''}${body}`, style.mode === undefined ? {} : { mode: style.mode });
  // The umask may have taken bits away: the new file is exactly as open as the old one, no more.
  if (style.mode !== undefined) chmodSync(partial, style.mode);
  renameSync(partial, file);
  return backup;
}

/** A new file, written as the clients write theirs. */
function freshText(config: Record<string, unknown>, style: ConfigStyle): string {
  return `${JSON.stringify(config, null, style.indent).replace(/\n/g, style.newline)}${style.finalNewline ? style.newline : ''}`;
}

/** jsonc-parser's scanner kinds (a `const enum` there, which isolated modules cannot read). */
const COMMA = 5 as SyntaxKind;
const LINE_COMMENT = 12 as SyntaxKind;
const BLOCK_COMMENT = 13 as SyntaxKind;
const LINE_BREAK = 14 as SyntaxKind;
const SPACE = 15 as SyntaxKind;

interface Token {
  kind: SyntaxKind;
  offset: number;
  end: number;
}

/** The tokens from `offset` on, comments and line breaks included, until `stop` says so (that one included). */
function tokensFrom(text: string, offset: number, stop: (token: Token) => boolean): Token[] {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  const tokens: Token[] = [];
  for (;;) {
    const kind = scanner.scan();
    const token = { kind, offset: scanner.getTokenOffset(), end: scanner.getTokenOffset() + scanner.getTokenLength() };
    tokens.push(token);
    if (stop(token) || token.end >= text.length) return tokens;
  }
}

/** The first token after `offset` that is not a space, line break or comment. */
const nextToken = (text: string, offset: number) => tokensFrom(text, offset, (t) => t.kind !== SPACE && t.kind !== LINE_BREAK && t.kind !== LINE_COMMENT && t.kind !== BLOCK_COMMENT).at(-1)!;

const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
const indentOfLine = (text: string, offset: number) => /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
/** The value in the file's indentation, its lines after the first starting with `indent`. */
const pretty = (value: unknown, indent: string, style: ConfigStyle) => JSON.stringify(value, null, style.indent).replace(/\n/g, `${style.newline}${indent}`);

/** The edits that set (or, entry undefined, remove) the property at path [key, name]; the rest of the text stays. */
function entryEdits(text: string, [key, name]: [string, string], entry: Record<string, unknown> | undefined, style: ConfigStyle): Edit[] {
  const root = parseTree(text, [], PARSE_OPTIONS)!;
  const servers = findNodeAtLocation(root, [key]);
  const held = servers && findNodeAtLocation(servers, [name]);
  if (entry === undefined) return held ? removal(text, servers, held.parent!) : [];
  if (held) return [{ offset: held.offset, length: held.length, content: pretty(entry, indentOfLine(text, held.parent!.offset), style) }];
  return servers ? insertion(text, servers, name, entry, style) : insertion(text, root, key, { [name]: entry }, style);
}

/** The property put in as the object's last member, after any comment on the last member's line. */
function insertion(text: string, object: Node, name: string, value: unknown, style: ConfigStyle): Edit[] {
  const members = object.children ?? [];
  const last = members.at(-1);
  const memberIndent = last && text.slice(lineStart(text, last.offset), last.offset).trim() === '' ? indentOfLine(text, last.offset) : indentOfLine(text, object.offset) + style.indent;
  const edits: Edit[] = [];
  let after = object.offset + 1; // after the opening brace, or the last member and its comma
  let trailingComma = false;
  if (last) {
    const next = nextToken(text, last.offset + last.length);
    trailingComma = next.kind === COMMA;
    after = trailingComma ? next.end : last.offset + last.length;
    if (!trailingComma) edits.push({ offset: after, length: 0, content: ',' });
  }
  // At the end of that line, past the spaces and comments on it (a comment running over lines is not).
  const stop = tokensFrom(text, after, (t) => !(t.kind === SPACE || t.kind === LINE_COMMENT || (t.kind === BLOCK_COMMENT && !/[\r\n]/.test(text.slice(t.offset, t.end))))).at(-1)!;
  const property = `${JSON.stringify(name)}: ${pretty(value, memberIndent, style)}`;
  // Something else on the line (the closing brace of a one-line object, such a comment): on a line of its own.
  const close = stop.kind === LINE_BREAK ? '' : `${style.newline}${stop.kind === BLOCK_COMMENT ? memberIndent : indentOfLine(text, object.offset)}`;
  edits.push({ offset: stop.offset, length: 0, content: `${style.newline}${memberIndent}${property}${trailingComma ? ',' : ''}${close}` });
  return edits;
}

/** The property taken out with one comma (its own, or the one before it when it is last); comments stay. */
function removal(text: string, object: Node, property: Node): Edit[] {
  const members = object.children!;
  const previous = members[members.indexOf(property) - 1];
  let start = property.offset;
  let end = property.offset + property.length;
  const next = nextToken(text, end);
  const edits: Edit[] = [];
  if (next.kind === COMMA) end = next.end;
  else if (previous) {
    const comma = nextToken(text, previous.offset + previous.length);
    // Only spaces between that comma and the property: one cut; else the comma alone, the comments stay.
    if (text.slice(comma.end, start).trim() === '') start = comma.offset;
    else edits.push({ offset: comma.offset, length: comma.end - comma.offset, content: '' });
  }
  // Its lines go too when nothing else is on them; spaces before a comment after it go with it.
  const spaces = /^[ \t]*/.exec(text.slice(end))![0].length;
  const lineBreak = /^[ \t]*(\r?\n)/.exec(text.slice(end));
  const from = lineStart(text, start);
  if (text.slice(from, start).trim() === '' && lineBreak) edits.push({ offset: from, length: end + lineBreak[0].length - from, content: '' });
  else edits.push({ offset: start, length: end + spaces - start, content: '' });
  return edits;
}

/**
 * Stored text made safe to show: C0 controls (ESC, BEL, CR, backspace …), DEL, C1 controls (a lone
 * CSI is U+009B) and the bidi overrides. Text holding them could clear a terminal, set its title,
 * hide a link (OSC 8) or reorder what is shown, and an agent reading a tool's text would be handed
 * them raw. The one escaping for every door that prints stored text: the command line (`--json`
 * prints it exactly; people see it escaped) and the MCP tools' text (their structured content keeps
 * it as stored).
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_AND_LINES = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** What JSON.stringify leaves raw inside strings (it escapes every C0 control; a newline outside one is layout). */
const JSON_RAW = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

const unicodeEscape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : unicodeEscape(ch);
}

/**
 * Every control character shown as an escape (`\x1b`, `\u009b`). Tabs stay; newlines stay only with
 * `lines` (text meant to span lines), else they are shown as `\x0a` too.
 */
export function escapeControls(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(options.lines ? CONTROL : CONTROL_AND_LINES, (ch) => (ch === '\t' ? ch : ch === '\n' && options.lines ? ch : escapeOne(ch)));
}

/**
 * Serialized JSON with the same characters written as JSON escapes (`\u009b`), which JSON.stringify
 * leaves raw for DEL, the C1 controls and the bidi overrides: the text parses to the same value.
 */
export function escapeControlsInJson(json: string): string {
  return json.replace(JSON_RAW, unicodeEscape);
}

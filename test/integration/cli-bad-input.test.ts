/**
 * Bad input to the `tempora` command (in-process): every case exits non-zero with one line on stderr
 * that names the file, line and field (or the option), never a stack trace, and leaves the memory
 * exactly as it was — compared through `export`, except exported_at.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliSandbox } from './cli-helpers';
import type { FactRecord } from '../../shared/memory-schema';

const cli = cliSandbox('tempora-cli-bad-');
const { tempora, ok, write, snapshot } = cli;

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one', ...fields });
const good = line({});

/** Runs a failing command and checks exit status, message, and that the memory did not change. */
function expectRefused(argv: string[], code: number, message: RegExp): string {
  const before = snapshot();
  const result = tempora(...argv);
  expect(result.code).toBe(code);
  expect(result.out).toBe('');
  expect(result.err).toMatch(message);
  expect(result.err).not.toMatch(/^\s+at /m);
  expect(snapshot()).toEqual(before);
  return result.err;
}

describe('tempora observe refuses a bad file whole', () => {
  beforeEach(() => {
    ok('observe', write('seed.jsonl', `${line({ subject: 'Aさん', object: 'Osaka', fact: 'Aさんは大阪に住んでいる。' })}\n`));
  });

  it('a malformed JSON line: FILE:LINE: not JSON, with the real line number past blank lines', () => {
    const name = write('broken.jsonl', `${good}\n\n{"subject": "me", oops}\n`);
    expectRefused(['observe', name], 1, /^tempora: broken\.jsonl:3: not JSON \(column 19: a field's name must be in double quotes, as "name": value\)\n$/);
  });

  it('a JSON line says what is wrong in words, with the column, never the parser\'s "at position"', () => {
    const says = (name: string, text: string, words: string) =>
      expectRefused(['observe', write(name, `${good}\n${text}\n`)], 1, new RegExp(`^${`tempora: ${name}:2: not JSON (${words})`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
    says('trailing.jsonl', '{"subject": "me",}', "column 18: a field's name must be in double quotes, as \"name\": value (a comma before the closing brace?)");
    says('single.jsonl', "{'subject': 'me'}", "column 2: a field's name must be in double quotes, as \"name\": value");
    says('colon.jsonl', '{"subject" "me"}', "column 12: expected ':' after the field's name");
    says('comma.jsonl', '{"subject": "me" "predicate": "p"}', "column 18: expected ',' or '}' after the value");
    says('open.jsonl', '{"subject": "me', 'column 16: the line ends before the JSON value does (a closing quote or brace missing?)');
    says('more.jsonl', '{"subject": "me"}}', 'column 18: more follows the end of the JSON value');
    says('word.jsonl', '{"subject": me}', "column 13: unexpected 'm': text must be in double quotes");
  });

  it('a memory export or a chat history given to observe is named, and pointed to its command', () => {
    const exported = ok('export');
    expectRefused(['observe', write('exp.json', exported)], 1, /^tempora: exp\.json looks like a Tempora memory export \(one JSON document\), not one JSON object per line: import it with `tempora import exp\.json`\n$/);
    expectRefused(['observe', write('one-line.json', JSON.stringify(JSON.parse(exported)))], 1, /^tempora: one-line\.json looks like a Tempora memory export .*`tempora import one-line\.json`\n$/);
    const chatgpt = [{ title: 'Trip', create_time: 1_700_000_000, mapping: { a: { id: 'a', message: null, parent: null, children: [] } }, current_node: 'a' }];
    expectRefused(['observe', write('conversations.json', JSON.stringify(chatgpt, null, 2))], 1, /^tempora: conversations\.json looks like a ChatGPT chat history, not one JSON object per line: import it with `tempora import-chats conversations\.json`\n$/);
    const claude = [{ uuid: 'c1', name: 'Trip', chat_messages: [{ sender: 'human', text: 'hi' }] }];
    expectRefused(['observe', write('claude.json', JSON.stringify(claude))], 1, /^tempora: claude\.json looks like a Claude chat history, .*`tempora import-chats claude\.json`\n$/);
  });

  it('an unknown field', () => {
    const name = write('unknown.jsonl', `${good}\n${line({ colour: 'red' })}\n`);
    expectRefused(
      ['observe', name],
      1,
      /^tempora: unknown\.jsonl:2: "colour" is not a field of an observation \(the fields are subject, predicate, object, object_type, fact, reference_time, valid_at, invalid_at, cardinality, conversation\)\n$/,
    );
  });

  it('a field of the wrong type, named with its line after skipped blank lines', () => {
    const name = write('types.jsonl', `\n${good}\n\n\n${line({ valid_at: 20260901 })}\n`);
    expectRefused(['observe', name], 1, /^tempora: types\.jsonl:5: valid_at: must be a time written as text \(2026-09-01, 2026-09-01T10:00:00\+09:00 or a phrase like "last March"\), not a number\n$/);
  });

  it('each bad field is one plain sentence naming it: empty, missing, not text, too long, not one of the choices', () => {
    const refused = (name: string, fields: Record<string, unknown>, expected: string) =>
      expectRefused(['observe', write(name, `${JSON.stringify(fields)}\n`)], 1, new RegExp(`^${`tempora: ${name}:1: ${expected}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`));
    const fields = JSON.parse(good) as Record<string, unknown>;
    const without = (key: string) => Object.fromEntries(Object.entries(fields).filter(([k]) => k !== key));
    refused('empty.jsonl', { ...fields, subject: '' }, 'subject: is empty');
    refused('spaces.jsonl', { ...fields, predicate: '   ' }, 'predicate: holds only spaces');
    refused('when.jsonl', without('reference_time'), 'reference_time: is missing (the time the line was said, e.g. 2026-09-01T10:00:00+09:00)');
    refused('who.jsonl', without('subject'), 'subject: is missing (who or what the fact is about, e.g. "me")');
    refused('said.jsonl', without('fact'), 'fact: is missing (the fact as one sentence, e.g. "I live in Osaka.")');
    refused('number.jsonl', { ...fields, object: 42 }, 'object: must be text (in quotes), not a number');
    refused('null.jsonl', { ...fields, reference_time: null }, 'reference_time: must be a time written as text (2026-09-01, 2026-09-01T10:00:00+09:00 or a phrase like "last March"), not null');
    refused('long.jsonl', { ...fields, predicate: 'p'.repeat(201) }, 'predicate: is too long: 201 characters, at most 200');
    refused('few.jsonl', { ...fields, cardinality: 'few' }, 'cardinality: must be "one" (one value at a time: a new one closes the old) or "many" (several at once), not "few"');
    refused('kind.jsonl', { ...fields, object_type: 'place' }, 'object_type: must be "entity" (a person, place or thing) or "literal" (a plain value), not "place"');
  });

  it('an impossible date', () => {
    const name = write('date.jsonl', `${good}\n${line({ reference_time: '2026-02-30T10:00:00+09:00' })}\n`);
    expectRefused(['observe', name], 1, /^tempora: date\.jsonl:2: reference_time: 2026-02-30T10:00:00\+09:00 is not a date: February 2026 has 28 days\n$/);
  });

  it('invalid_at before valid_at (dates without a zone are days in the zone of the line)', () => {
    const name = write('interval.jsonl', `${good}\n${line({ valid_at: '2026-09-10', invalid_at: '2026-09-05' })}\n`);
    expectRefused(['observe', name], 1, /^tempora: interval\.jsonl:2: invalid_at: must be after valid_at \(10 Sept 2026, in UTC\+09:00\)\n$/);
  });

  it('a bad cardinality, a missing field, a line that is not an object', () => {
    expectRefused(['observe', write('c.jsonl', `${line({ cardinality: 'few' })}\n`)], 1, /^tempora: c\.jsonl:1: cardinality: /);
    expectRefused(['observe', write('m.jsonl', `${JSON.stringify({ subject: 'me', predicate: 'p', object: 'o', reference_time: '2026-09-01' })}\n`)], 1, /^tempora: m\.jsonl:1: fact: /);
    expectRefused(['observe', write('a.jsonl', `${good}\n[1, 2]\n`)], 1, /^tempora: a\.jsonl:2: an observation is one JSON object per line; this line is an array\n$/);
    expectRefused(['observe', write('s.jsonl', `"I live in Kyoto."\n`)], 1, /^tempora: s\.jsonl:1: an observation is one JSON object per line; this line is a string\n$/);
  });

  it('a file not in UTF-8 (Shift_JIS from an older Windows editor) is refused naming its line, not stored as U+FFFD', () => {
    // 東京 in Shift_JIS is 93 8C 8B 9E: bytes that are no UTF-8 text.
    const sjis = Buffer.concat([Buffer.from(`${good}\n{"subject":"me","predicate":"lives in","object":"`), Buffer.from([0x93, 0x8c, 0x8b, 0x9e]), Buffer.from(`","fact":"x","reference_time":"2026-09-01T10:00:00+09:00"}\n`)]);
    writeFileSync(join(cli.dir, 'sjis.jsonl'), sjis);
    expectRefused(['observe', 'sjis.jsonl'], 1, /^tempora: sjis\.jsonl:2: not UTF-8 text \(save the file as UTF-8\)\n$/);
  });

  it('a file whose last character is cut short is refused naming that line, not line 1, and not called "not UTF-8"', () => {
    const cut = Buffer.from(`${good}\n${good}\n{"subject":"東`);
    writeFileSync(join(cli.dir, 'cut.jsonl'), cut.subarray(0, cut.length - 1));
    expectRefused(['observe', 'cut.jsonl'], 1, /^tempora: cut\.jsonl:3: the file ends in the middle of a character \(was it cut short\?\)\n$/);
    // Bytes that are not UTF-8 before the cut: that is what is said.
    writeFileSync(join(cli.dir, 'both.jsonl'), Buffer.concat([Buffer.from(`${good}\n`), Buffer.from([0x93, 0x0a]), cut.subarray(0, cut.length - 1)]));
    expectRefused(['observe', 'both.jsonl'], 1, /^tempora: both\.jsonl:2: not UTF-8 text \(save the file as UTF-8\)\n$/);
  });

  it('a file that cannot be read', () => {
    expectRefused(['observe', 'missing.jsonl'], 1, /^tempora: cannot read missing\.jsonl: no such file or directory\n$/);
    expectRefused(['observe', '.'], 1, /^tempora: cannot read \.: is a directory\n$/);
  });
});

describe('tempora import refuses a bad document whole', () => {
  beforeEach(() => {
    ok('observe', write('seed.jsonl', `${good}\n`));
  });

  it('a file that is not JSON', () => {
    expectRefused(['import', write('notes.txt', 'my manager is A\n')], 1, /^tempora: notes\.txt: not JSON \(.+\)\n$/);
    expectRefused(['import', write('empty.json', '')], 1, /^tempora: empty\.json: the file is empty \(.+\)\n$/);
  });

  it('a file not in UTF-8 is refused in words, not imported with U+FFFD in place of the text', () => {
    const text = ok('export');
    const head = text.slice(0, text.indexOf('Kyoto'));
    const tail = text.slice(head.length + 'Kyoto'.length);
    // 東京 in Shift_JIS: 93 8C 8B 9E.
    writeFileSync(join(cli.dir, 'sjis.json'), Buffer.concat([Buffer.from(head), Buffer.from([0x93, 0x8c, 0x8b, 0x9e]), Buffer.from(tail)]));
    expectRefused(['import', 'sjis.json', '--replace'], 1, new RegExp(`^tempora: sjis\\.json: not JSON \\(not UTF-8 text at byte ${Buffer.byteLength(head).toLocaleString('en-US')}: save the file as UTF-8\\)\\n$`));
  });

  it('an export cut short in the middle of a character is said so, not called "not UTF-8"', () => {
    const text = Buffer.from(ok('export').replace('Kyoto', '京都'));
    const cut = text.subarray(0, text.indexOf(Buffer.from('京')) + 2);
    writeFileSync(join(cli.dir, 'cut.json'), cut);
    expectRefused(['import', 'cut.json', '--replace'], 1, new RegExp(`^tempora: cut\\.json: not JSON \\(the file ends in the middle of a character at byte ${(cut.length - 2).toLocaleString('en-US')} \\(was it cut short\\?\\)\\)\\n$`));
  });

  it('a document whose fields are wrong, naming the path of the field', () => {
    const doc = JSON.parse(ok('export')) as { facts: Record<string, unknown>[]; [key: string]: unknown };
    const other = { ...doc, facts: doc.facts.map((f) => ({ ...f, valid_at: '2026-09-01' })) };
    expectRefused(['import', write('dates.json', JSON.stringify(other))], 1, /^tempora: dates\.json: not a valid Tempora export: facts\.0\.valid_at: must be an ISO-8601 UTC time/);
    const typed = { ...doc, facts: doc.facts.map((f) => ({ ...f, episode_ids: 'epi_1' })) };
    expectRefused(['import', write('types.json', JSON.stringify(typed))], 1, /^tempora: types\.json: not a valid Tempora export: facts\.0\.episode_ids: must be an array, not a string\n$/);
    expectRefused(['import', write('format.json', JSON.stringify({ ...doc, format: 'other' }))], 1, /^tempora: format\.json: not a Tempora memory export: its "format" is "other", and an export's is "tempora\.memory"\n$/);
  });

  it('ids that already exist, unless --replace', () => {
    write('same.json', ok('export'));
    expectRefused(['import', 'same.json'], 1, /^tempora: same\.json: nothing was imported: \d+ records in it already exist in this memory \(the first: \w+\), so this export, or part of it, looks imported here before; import it with --replace to put the file's versions of those records in place of the ones here\n$/);
  });

  it('a ChatGPT or Claude chat history is named as one, and pointed to import-chats, without reading it whole', () => {
    const chatgpt = [{ title: 'Trip', create_time: 1_700_000_000, mapping: { a: { id: 'a', message: null, parent: null, children: [] } }, current_node: 'a' }];
    const points = (file: string, what: string) => new RegExp(`^tempora: ${file.replace('.', '\\.')} looks like a ${what} chat history, not a Tempora memory export: import it with \`tempora import-chats ${file.replace('.', '\\.')}\`\n$`);
    expectRefused(['import', write('conversations.json', JSON.stringify(chatgpt))], 1, points('conversations.json', 'ChatGPT'));
    const claude = [{ uuid: 'c1', name: 'Trip', created_at: '2026-09-01T00:00:00Z', chat_messages: [{ sender: 'human', text: 'hi' }] }];
    expectRefused(['import', write('claude.json', JSON.stringify(claude, null, 2))], 1, points('claude.json', 'Claude'));
    // One conversation on its own, as an object.
    expectRefused(['import', write('one.json', JSON.stringify(chatgpt[0]))], 1, points('one.json', 'ChatGPT'));
    // Its first bytes say it: a file whose end is cut off (not JSON) is still named by its start.
    expectRefused(['import', write('cut.json', JSON.stringify(chatgpt).slice(0, 60))], 1, points('cut.json', 'ChatGPT'));
    // A first conversation too long for the first bytes to show its mapping: told once the file is read.
    const long = [{ ...chatgpt[0], title: 'x'.repeat(70_000) }];
    expectRefused(['import', write('long.json', JSON.stringify(long))], 1, points('long.json', 'ChatGPT'));
    // The zip a data export downloads.
    writeFileSync(join(cli.dir, 'export.zip'), Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]));
    expectRefused(['import', 'export.zip'], 1, /^tempora: export\.zip is a zip archive, not a Tempora memory export \(one JSON file\): a ChatGPT or Claude data export's \.zip is imported with `tempora import-chats export\.zip`\n$/);
    // A list of something else is not called a chat history.
    expectRefused(['import', write('list.json', '[1, 2, 3]')], 1, /^tempora: list\.json: not a Tempora memory export: it holds a list, and an export is one JSON object with "format": "tempora\.memory"\n$/);
  });
});

describe('tempora refuses bad options without touching the memory', () => {
  let fact: FactRecord;
  beforeEach(() => {
    ok('observe', write('seed.jsonl', `${good}\n`));
    fact = (JSON.parse(ok('facts', '--json')) as FactRecord[])[0]!;
  });

  it('impossible or malformed dates name the option', () => {
    expectRefused(['facts', '--as-of', '2026-02-30'], 1, /^tempora: --as-of: 2026-02-30 is not a date: February 2026 has 28 days\n$/);
    // The same said the Japanese way, as many of the memory's users write dates.
    expectRefused(['facts', '--as-of', '2026年2月30日'], 1, /^tempora: --as-of: 2026年2月30日 is not a date: February 2026 has 28 days\n$/);
    expectRefused(['facts', '--as-of', '２０２６年１３月'], 1, /^tempora: --as-of: ２０２６年１３月 is not a date: there is no month 13\n$/);
    expectRefused(['search', 'Kyoto', '--known-at', 'the other day'], 1, /^tempora: --known-at: not a time: "the other day" \(write a date like 2026-09-01, a time like 2026-09-01T10:00, or a phrase like "yesterday" or "先週"\)\n$/);
    expectRefused(['facts', '--tz', 'Mars/Olympus'], 1, /^tempora: --tz: unknown time zone "Mars\/Olympus" \(use an IANA name like Asia\/Tokyo, or an offset like \+09:00\)\n$/);
    // The abbreviation a Japanese user types names the zone it means, and is not read silently.
    expectRefused(['facts', '--tz', 'JST'], 1, /^tempora: --tz: unknown time zone "JST" \(did you mean Asia\/Tokyo\? use an IANA name like Asia\/Tokyo, or an offset like \+09:00\)\n$/);
    expectRefused(['edit', fact.id, '--valid-at', '2026-13-01'], 1, /^tempora: --valid-at: 2026-13-01 is not a date: there is no month 13\n$/);
    expectRefused(['close', fact.id, '--at', '2026-09-31'], 1, /^tempora: --at: 2026-09-31 is not a date: September 2026 has 30 days\n$/);
    expectRefused(['facts', '--limit', 'ten'], 1, /^tempora: --limit: must be a positive whole number, got "ten"\n$/);
  });

  it('times whose UTC instant is outside years 0000–9999 name the option, the value and the limit', () => {
    expectRefused(['facts', '--as-of', '0000-01-01T00:00:00+01:00'], 1, /^tempora: --as-of: out of range: "0000-01-01T00:00:00\+01:00" is before 0000-01-01T00:00:00\.000Z UTC \(the earliest time Tempora stores\)\n$/);
    expectRefused(['search', 'Kyoto', '--known-at', '9999-12-31T23:30:00-01:00'], 1, /^tempora: --known-at: out of range: "9999-12-31T23:30:00-01:00" is after 9999-12-31T23:59:59\.999Z UTC/);
    expectRefused(['close', fact.id, '--at', '9999-12-31T23:30:00-01:00'], 1, /^tempora: --at: out of range: /);
    expectRefused(['edit', fact.id, '--valid-at', '0000-01-01T00:00:00+01:00'], 1, /^tempora: --valid-at: out of range: /);
    expectRefused(['observe', write('early.jsonl', `${line({ reference_time: '0000-01-01T00:00:00+01:00' })}\n`)], 1, /^tempora: early\.jsonl:1: reference_time: out of range: "0000-01-01T00:00:00\+01:00" is before 0000-01-01T00:00:00\.000Z UTC/);
    // The limits themselves are times like any other.
    expect(ok('facts', '--as-of', '0000-01-01T01:00:00+01:00', '--json')).toBe('[]\n');
  });

  it('edits the engine refuses: an end before the start, no change, an unknown id', () => {
    expectRefused(['close', fact.id, '--at', '2026-08-01'], 1, /^tempora: --at \(1 Aug 2026\) must be after the start the fact has \(1 Sept 2026\), times in UTC\n$/);
    expectRefused(['edit', fact.id, '--fact', fact.fact], 1, /^tempora: the edit changes nothing\n$/);
    expectRefused(['edit', 'fct_nope', '--fact', 'x'], 1, /^tempora: no fact with id fct_nope\n$/);
    // An empty sentence or object is named by the option typed.
    expectRefused(['edit', fact.id, '--fact', ''], 1, /^tempora: --fact: must not be empty or only spaces; nothing changed\n$/);
    expectRefused(['edit', fact.id, '--object', '  '], 1, /^tempora: --object: must not be empty or only spaces; nothing changed\n$/);
    expectRefused(['forget', 'fct_nope'], 1, /^tempora: no fact with id fct_nope\n$/);
    expectRefused(['forget', '--entity', 'Nobody'], 1, /^tempora: no entity named "Nobody"\n$/);
    expectRefused(['forget', '--episode', 'epi_nope'], 1, /^tempora: no episode with id epi_nope\n$/);
  });

  it('usage errors exit 2 and point to the help', () => {
    expectRefused(['frobnicate'], 2, /^tempora: unknown command "frobnicate" \(commands: .*\)\nRun 'tempora help' for usage\.\n$/);
    expectRefused(['facts', '--colour', 'red'], 2, /^tempora: unknown option --colour for facts\nRun 'tempora help facts' for usage\.\n$/);
    expectRefused(['facts', '--as-of'], 2, /^tempora: --as-of needs a value\n/);
    expectRefused(['facts', 'extra'], 2, /^tempora: facts: unexpected argument "extra"\n/);
    expectRefused(['observe'], 2, /^tempora: observe needs FILE\.jsonl\nRun 'tempora help observe' for usage\.\n$/);
    // An empty id (an unset shell variable) is named as the argument it is, not "no fact with id ".
    expectRefused(['show', ''], 2, /^tempora: show: FACT_ID is empty or only spaces\nRun 'tempora help show' for usage\.\n$/);
    expectRefused(['close', ' ', '--at', '昨日'], 2, /^tempora: close: FACT_ID is empty or only spaces\n/);
    expectRefused(['forget', ''], 2, /^tempora: forget: FACT_ID is empty or only spaces\n/);
    expectRefused(['observe', ''], 2, /^tempora: observe: FILE\.jsonl is empty or only spaces\n/);
    expectRefused(['close', fact.id], 2, /^tempora: close needs --at\n/);
    expectRefused(['edit', fact.id], 2, /^tempora: edit needs at least one of --fact, --object, --valid-at, --invalid-at\n/);
    expectRefused(['forget', fact.id, '--entity', 'me'], 2, /^tempora: forget needs exactly one of FACT_ID, --entity NAME, --episode ID\n/);
    expectRefused([], 2, /^tempora: no command given\nRun 'tempora help' for usage\.\n$/);
  });
});

/**
 * What the screen says for a failure (renderer/src/api/readable-error.ts): one sentence without
 * internal call names or raw parser / schema output, the rest as details for the disclosure.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeRequestError } from '../../electron/engine/api-errors';
import { ApiError } from '../../shared/api-error';
import { describeZodError, memoryExport } from '../../shared/memory-schema';
import { readableError } from '../../renderer/src/api/readable-error';

describe('an error as the screen says it', () => {
  it('keeps a plain message as the sentence, without the call name or "invalid request"', () => {
    expect(readableError(new ApiError('invalid_input', 'setMcpEnabled: Here in the browser, `tempora serve` itself serves MCP at /mcp.'))).toEqual({
      sentence: 'Here in the browser, `tempora serve` itself serves MCP at /mcp.',
      details: null,
    });
    const refused = z.strictObject({ fact: z.string().min(1) }).safeParse({ fact: '' });
    expect(readableError(new ApiError('invalid_request', describeRequestError('editFact', refused.error!)))?.sentence).toBe('fact: must not be empty');
    expect(readableError('The connection to Tempora was closed.')).toEqual({ sentence: 'The connection to Tempora was closed.', details: null });
    expect(readableError('broken.json is not JSON: line 4, column 13.')?.sentence).toBe('broken.json is not JSON: line 4, column 13.');
  });

  it('keeps the longest time fault a field can say as the sentence (the close form’s ambiguous date)', () => {
    const said = 'No longer true from: 10/09/2026 is ambiguous: 10 Sep 2026 (day first) or 9 Oct 2026 (month first)? Write 2026-09-10 or 2026-10-09 (or "10 Sep 2026"); a numeric date is read only when its day is over 12 or equals its month';
    expect(readableError(new ApiError('invalid_input', `closeFact: ${said}`))).toEqual({ sentence: said, details: null });
  });

  it('keeps an import’s plain refusal whole as the sentence, an entry of the file named by its index included', () => {
    const notAnExport = 'bad.json cannot be imported: not a Tempora memory export: it has no "format": "tempora.memory", which every export has';
    expect(readableError(`previewImportUpload: ${notAnExport}`)).toEqual({ sentence: notAnExport, details: null });
    const cut = 'cut.json cannot be imported: claim 1 (claims[0]) stands behind fact fct_0123456789abcdef, which this file does not hold: the file is incomplete or was edited';
    expect(readableError(cut)).toEqual({ sentence: cut, details: null });
    // JSON itself is still raw output, and so is an indexed path outside a place named in words.
    expect(readableError('x.json cannot be imported: [1, 2]: a list')?.sentence).toBe('x.json cannot be imported; the details say what is wrong.');
    expect(readableError('x.json cannot be imported: claims[0] must be an object')?.sentence).toBe('x.json cannot be imported; the details say what is wrong.');
  });

  it('puts a schema dump in the details, one problem a line, and says the plain part', () => {
    const bad = memoryExport.safeParse({ format: 'tempora.memory', version: 3, facts: [{}, {}], entities: 'x' });
    const message = `previewImport: bad.json cannot be imported: not a valid Tempora export: ${describeZodError(bad.error!)}`;
    const shown = readableError(message)!;
    expect(shown.sentence).toBe('bad.json cannot be imported: not a valid Tempora export; the details say what is wrong.');
    expect(shown.details!.split('\n').length).toBeGreaterThan(3);
    expect(shown.details).toMatch(/^exported_at: /);
    expect(shown.details).toContain("\nfacts.0.valid_at: ");
    expect(shown.details).toContain('entities');
    expect(shown.sentence).not.toMatch(/previewImport|Invalid input|expected/);
  });

  it('names the conversation and message of a malformed chat export, the schema words in the details', () => {
    const shown = readableError(
      new ApiError('invalid_input', 'previewChatImport: broken.zip: conversation 1 ("Moving to Berlin", id gpt-c1), message g-u1: message.author.role: Invalid option: expected one of "user"|"assistant"|"system"|"tool"'),
    )!;
    expect(shown.sentence).toBe('broken.zip: conversation 1 ("Moving to Berlin", id gpt-c1), message g-u1; the details say what is wrong.');
    expect(shown.details).toMatch(/^message\.author\.role: Invalid option/);
  });

  it('keeps where a file stops being JSON in the sentence, the parser’s words in the details', () => {
    const shown = readableError("broken.json cannot be imported: it is not JSON: line 4, column 13: Unexpected token ','")!;
    expect(shown.sentence).toBe('broken.json cannot be imported: it is not JSON: line 4, column 13; the details say what is wrong.');
    expect(shown.details).toBe("Unexpected token ','");
  });

  it('uses the place’s own sentence, or its kind’s, when the message is raw parser output', () => {
    const parser = 'importChats: Parser cannot parse input: expected a value';
    expect(readableError(parser, { fallback: 'x.zip is not a ChatGPT or Claude export; choose the file the export gave you.' })).toEqual({
      sentence: 'x.zip is not a ChatGPT or Claude export; choose the file the export gave you.',
      details: 'Parser cannot parse input: expected a value',
    });
    const internal = readableError(new ApiError('internal', 'listFacts: {"code":"invalid_type","path":["facts",0]}'))!;
    expect(internal.sentence).toBe('Something went wrong inside Tempora; try again, and if it happens again, report it with the details.');
    expect(internal.details).toBe('{"code":"invalid_type","path":["facts",0]}');
    expect(readableError(new ApiError('busy', 'too many calls at once (64)'))?.sentence).toMatch(/^Tempora is busy/);
  });

  it('adds the details a place gives, and shows nothing for no error', () => {
    expect(readableError('bad.json is not a Tempora export file; choose a file that Export saved.', { details: 'facts.0.valid_at: Invalid ISO datetime; entities: expected array' })).toEqual({
      sentence: 'bad.json is not a Tempora export file; choose a file that Export saved.',
      details: 'facts.0.valid_at: Invalid ISO datetime\nentities: expected array',
    });
    expect(readableError(null)).toBeNull();
    expect(readableError('')).toBeNull();
  });
});

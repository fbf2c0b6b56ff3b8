import { describe, expect, it } from 'vitest';
import { validateJson } from '../../electron/llm/json-schema-validate';
import type { JsonSchemaObject } from '../../electron/llm/ports';

const schema: JsonSchemaObject = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 5 },
    kind: { enum: ['one', 'many'] },
    ok: { type: 'boolean' },
    when: { type: 'string', format: 'date' },
    tags: { type: 'array', maxItems: 2, items: { type: 'string', maxLength: 3 } },
    note: { oneOf: [{ type: 'null' }, { type: 'string', maxLength: 10 }] },
  },
  required: ['name', 'kind', 'ok'],
};

describe('validateJson', () => {
  it('accepts conforming values, with optional properties left out', () => {
    expect(validateJson({ name: '東京', kind: 'one', ok: true }, schema)).toEqual([]);
    expect(validateJson({ name: 'ab', kind: 'many', ok: false, when: '2026-09-01', tags: ['a', 'bc'], note: null }, schema)).toEqual([]);
  });

  it('reports each problem with its path', () => {
    const errors = validateJson({ name: 'toolong', kind: 'few', ok: 'yes', when: '1 Sep', tags: ['a', 'b', 'cdef'], extra: 1, note: 3 }, schema);
    expect(errors).toEqual(
      expect.arrayContaining([
        '$.name: longer than 5',
        expect.stringContaining('$.kind:'),
        '$.ok: expected boolean, got string',
        '$.when: not a date',
        '$.tags: more than 2 items',
        '$.tags[2]: longer than 3',
        '$: unexpected property "extra"',
        '$.note: matches none of the oneOf options',
      ]),
    );
    expect(validateJson({ kind: 'one' }, schema)).toEqual(['$: missing required property "name"', '$: missing required property "ok"']);
    expect(validateJson([], schema)).toEqual(['$: expected object, got array']);
  });

  it('counts string length in characters, not UTF-16 units', () => {
    expect(validateJson({ name: '😀😀😀😀😀', kind: 'one', ok: true }, schema)).toEqual([]);
  });
});

/**
 * Model-output schemas are zod schemas, written once. From each one this file derives the JSON
 * Schema for node-llama-cpp's grammar (`z.toJSONSchema`, then checked against the subset the grammar
 * honours, so nothing is silently ignored), and it validates and types the model's answer with the
 * same schema. Callers (and fakes) only hand a zod schema to `StructuredModel.completeJson`.
 *
 * Rules for a model-output schema (checked by `grammarSchemaOf`):
 * - the root is an object; objects are `z.strictObject` (or `z.object`) and every property is
 *   required: the grammar always writes every listed property;
 * - every string is bounded: `modelText(max)`, `z.enum`, `z.literal`; every array has `.max()`.
 *   A weak model can otherwise fill `maxTokens` with one endless string;
 * - strings use `modelText(max)`, not `z.string().max(max)`: the grammar counts characters (code
 *   points), zod's `.max()` counts UTF-16 units and would refuse an answer the grammar allowed;
 * - alternatives are `z.union` / `z.discriminatedUnion` (one `oneOf` in the grammar).
 */
import { z } from 'zod';
import { ModelCallError } from './model-errors';

/** The JSON Schema subset node-llama-cpp's grammar honours, as `grammarSchemaOf` returns it. */
export type GrammarJsonSchema =
  | GrammarJsonObject
  | { type: 'array'; items: GrammarJsonSchema; minItems?: number; maxItems: number; description?: string }
  | { type: 'string'; minLength?: number; maxLength: number; description?: string }
  | { type: 'string'; format: 'date' | 'date-time' | 'time'; description?: string }
  | { type: 'boolean' | 'null' | 'integer' | 'number'; description?: string }
  | { type?: string; enum: readonly JsonLiteral[]; description?: string }
  | { type?: string; const: JsonLiteral; description?: string }
  | { oneOf: readonly GrammarJsonSchema[]; description?: string };

export type JsonLiteral = string | number | boolean | null;

export interface GrammarJsonObject {
  type: 'object';
  properties: { readonly [key: string]: GrammarJsonSchema };
  required: readonly string[];
  additionalProperties: false;
  description?: string;
}

/**
 * A string of at most `maxLength` characters, counted as the grammar counts them (code points, so
 * "😀" is one). Its JSON Schema is `{ type: 'string', maxLength, description }`.
 */
export function modelText(maxLength: number, description?: string) {
  return z
    .string()
    .refine((text) => codePoints(text) <= maxLength, { message: `longer than ${maxLength} characters` })
    .meta(description === undefined ? { maxLength } : { maxLength, description });
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Thrown when a zod schema cannot be a grammar: the message names the place in the schema and why. */
export class GrammarSchemaError extends Error {
  override readonly name = 'GrammarSchemaError';
}

const grammarSchemas = new WeakMap<z.ZodType, GrammarJsonObject>();

/**
 * The grammar's JSON Schema for a model-output zod schema (cached per schema object). Throws a
 * GrammarSchemaError when the schema uses anything the grammar would not enforce.
 */
export function grammarSchemaOf(schema: z.ZodType): GrammarJsonObject {
  const cached = grammarSchemas.get(schema);
  if (cached) return cached;
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'throw',
    cycles: 'throw',
    reused: 'inline',
    override: ({ zodSchema, jsonSchema, path }) => {
      // `.max()` / `.length()` on a string count UTF-16 units; the grammar counts characters (see modelText).
      const def = zodSchema._zod.def as { type: string; checks?: readonly { _zod: { def: { check?: string } } }[] };
      const lengthCheck = def.checks?.some((c) => c._zod.def.check === 'max_length' || c._zod.def.check === 'length_equals');
      if (def.type === 'string' && lengthCheck) {
        throw new GrammarSchemaError(`Model-output schema at ${schemaPath(path)}: use modelText(${String(jsonSchema.maxLength)}) instead of z.string().max(), which counts UTF-16 units`);
      }
    },
  }) as Record<string, unknown>;
  const { $schema: _dialect, ...root } = generated;
  const checked = grammarNode(root, '$');
  if (!('type' in checked) || checked.type !== 'object') throw new GrammarSchemaError('Model-output schema at $: the answer must be an object');
  const result = checked as GrammarJsonObject;
  grammarSchemas.set(schema, result);
  return result;
}

/** "$.facts[].subject" for a JSON Schema path such as ['properties', 'facts', 'items', 'properties', 'subject']. */
function schemaPath(path: readonly (string | number)[]): string {
  let at = '$';
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (step === 'properties' && i + 1 < path.length) at += `.${String(path[++i])}`;
    else if (step === 'items') at += '[]';
    else if ((step === 'anyOf' || step === 'oneOf') && i + 1 < path.length) at += `|${String(path[++i])}`;
    else at += `/${String(step)}`;
  }
  return at;
}

function fail(path: string, why: string): never {
  throw new GrammarSchemaError(`Model-output schema at ${path}: ${why}`);
}

function only(node: Record<string, unknown>, path: string, allowed: readonly string[]): void {
  const extra = Object.keys(node).filter((key) => key !== 'description' && !allowed.includes(key));
  if (extra.length) fail(path, `the grammar does not support ${extra.map((k) => `"${k}"`).join(', ')}`);
}

const FORMATS = new Set(['date', 'date-time', 'time']);

/** Checks one node against the grammar's subset and returns a clean copy of it. */
function grammarNode(value: unknown, path: string): GrammarJsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'not a schema the grammar can use (any value?)');
  let node = value as Record<string, unknown>;
  const description = typeof node.description === 'string' ? { description: node.description } : {};
  if ('anyOf' in node) {
    // node-llama-cpp reads only `oneOf`; its grammar is an alternation either way (zod validates the answer).
    const { anyOf, ...rest } = node;
    if ('oneOf' in rest) fail(path, 'both anyOf and oneOf');
    node = { ...rest, oneOf: anyOf };
  }
  if ('oneOf' in node) {
    only(node, path, ['oneOf']);
    if (!Array.isArray(node.oneOf) || node.oneOf.length === 0) fail(path, 'empty oneOf');
    return { oneOf: node.oneOf.map((option: unknown, i) => grammarNode(option, `${path}|${i}`)), ...description };
  }
  if ('const' in node) {
    only(node, path, ['const', 'type']);
    return { ...(typeof node.type === 'string' ? { type: node.type } : {}), const: node.const as JsonLiteral, ...description };
  }
  if ('enum' in node) {
    only(node, path, ['enum', 'type']);
    if (!Array.isArray(node.enum) || node.enum.length === 0) fail(path, 'empty enum');
    return { ...(typeof node.type === 'string' ? { type: node.type } : {}), enum: [...(node.enum as JsonLiteral[])], ...description };
  }
  switch (node.type) {
    case 'object': {
      only(node, path, ['type', 'properties', 'required', 'additionalProperties']);
      if (node.additionalProperties !== false) fail(path, 'the object must not allow other properties (use z.strictObject)');
      const entries = Object.entries((node.properties ?? {}) as Record<string, unknown>);
      const required = (node.required ?? []) as string[];
      const optional = entries.map(([key]) => key).filter((key) => !required.includes(key));
      if (optional.length) fail(path, `optional properties (${optional.join(', ')}): the grammar always writes every property`);
      const properties = Object.fromEntries(entries.map(([key, child]) => [key, grammarNode(child, `${path}.${key}`)]));
      return { type: 'object', properties, required: entries.map(([key]) => key), additionalProperties: false, ...description };
    }
    case 'array': {
      only(node, path, ['type', 'items', 'minItems', 'maxItems']);
      if (typeof node.maxItems !== 'number') fail(path, 'unbounded array (give it .max())');
      if (node.items === undefined) fail(path, 'array items are not described');
      return {
        type: 'array',
        items: grammarNode(node.items, `${path}[]`),
        ...(typeof node.minItems === 'number' ? { minItems: node.minItems } : {}),
        maxItems: node.maxItems,
        ...description,
      };
    }
    case 'string': {
      if ('format' in node) {
        only(node, path, ['type', 'format']);
        if (typeof node.format !== 'string' || !FORMATS.has(node.format)) fail(path, `the grammar does not support format ${JSON.stringify(node.format)}`);
        return { type: 'string', format: node.format as 'date' | 'date-time' | 'time', ...description };
      }
      only(node, path, ['type', 'minLength', 'maxLength']);
      if (typeof node.maxLength !== 'number') fail(path, 'unbounded string (use modelText(max), z.enum or z.literal)');
      return { type: 'string', ...(typeof node.minLength === 'number' ? { minLength: node.minLength } : {}), maxLength: node.maxLength, ...description };
    }
    case 'boolean':
    case 'null':
    case 'integer':
    case 'number':
      only(node, path, ['type']);
      return { type: node.type, ...description };
    default:
      return fail(path, `the grammar does not support type ${JSON.stringify(node.type)}`);
  }
}

/** "$.facts[0].subject" for a zod issue path. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(String(key)) ? `${at}.${String(key)}` : `${at}[${JSON.stringify(String(key))}]`), '$');
}

/** Each problem of a value against a schema as "$.path: message" (empty when it conforms). */
export function outputProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issuePath(issue.path)}: ${issue.message}`);
}

/** A value checked against a model-output schema: typed, or the problems found, each naming its field. */
export function parseModelOutput<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; problems: string[] } {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, problems: outputProblems(result.error) };
}

/**
 * The model's text as a typed answer, or an `invalid_output` ModelCallError: not (complete) JSON,
 * or JSON that the schema refuses (the message names the first fields at fault).
 */
export function decodeModelOutput<T>(text: string, schema: z.ZodType<T>, generation: { stopReason: string; maxTokens: number }): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const why = generation.stopReason === 'maxTokens' ? ` (generation stopped at maxTokens = ${generation.maxTokens})` : '';
    throw new ModelCallError('invalid_output', `The model's answer is not complete JSON${why}`, { output: text });
  }
  const parsed = parseModelOutput(schema, value);
  if (!parsed.ok) throw new ModelCallError('invalid_output', `The model's answer does not match the schema: ${parsed.problems.slice(0, 5).join('; ')}`, { output: text });
  return parsed.value;
}

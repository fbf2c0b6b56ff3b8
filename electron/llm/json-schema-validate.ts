/**
 * A small validator for the JSON Schema subset in ports.ts, with the same semantics as
 * node-llama-cpp's grammar: listed properties only, `required` ones must be present, strings and
 * arrays within their bounds. Used on every structured answer (grammar or not), and usable by fakes.
 */
import type { JsonSchema } from './ports';

/** Returns the problems found (empty when `value` conforms), each prefixed with a JSON path. */
export function validateJson(value: unknown, schema: JsonSchema, path = '$'): string[] {
  const errors: string[] = [];
  check(value, schema, path, errors);
  return errors;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function check(value: unknown, schema: JsonSchema, path: string, errors: string[]): void {
  if ('enum' in schema) {
    if (!schema.enum.some((option) => option === value)) errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
    return;
  }
  if ('const' in schema) {
    if (value !== schema.const) errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
    return;
  }
  if ('oneOf' in schema) {
    const matches = schema.oneOf.filter((option) => validateJson(value, option, path).length === 0).length;
    if (matches === 0) errors.push(`${path}: matches none of the oneOf options`);
    return;
  }
  switch (schema.type) {
    case 'object': {
      if (typeName(value) !== 'object') {
        errors.push(`${path}: expected object, got ${typeName(value)}`);
        return;
      }
      const record = value as Record<string, unknown>;
      const properties = schema.properties ?? {};
      for (const key of schema.required ?? []) {
        if (!(key in record)) errors.push(`${path}: missing required property "${key}"`);
      }
      for (const [key, child] of Object.entries(record)) {
        const childSchema = properties[key];
        if (childSchema === undefined) errors.push(`${path}: unexpected property "${key}"`);
        else check(child, childSchema, `${path}.${key}`, errors);
      }
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) {
        errors.push(`${path}: expected array, got ${typeName(value)}`);
        return;
      }
      if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: more than ${schema.maxItems} items`);
      if (schema.items) value.forEach((item, i) => check(item, schema.items!, `${path}[${i}]`, errors));
      return;
    }
    case 'string': {
      if (typeof value !== 'string') {
        errors.push(`${path}: expected string, got ${typeName(value)}`);
        return;
      }
      if ('format' in schema) {
        const pattern = schema.format === 'date' ? DATE : schema.format === 'time' ? TIME : DATE_TIME;
        if (!pattern.test(value)) errors.push(`${path}: not a ${schema.format}`);
        return;
      }
      // Lengths in code points, as the grammar counts characters.
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') errors.push(`${path}: expected boolean, got ${typeName(value)}`);
      return;
    case 'null':
      if (value !== null) errors.push(`${path}: expected null, got ${typeName(value)}`);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) errors.push(`${path}: expected integer`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) errors.push(`${path}: expected number`);
      return;
  }
}

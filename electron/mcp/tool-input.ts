/**
 * How a tool's arguments are checked against its zod schema, in the app's words. The SDK validates
 * a tool's input with `schema['~standard'].validate` (its one hook) and refuses a failure as
 * "Input validation error: Invalid arguments for tool list_facts: …" — its words around ours, and no
 * way to leave them out. So the validate handed to the SDK never fails: arguments that do not pass
 * become a RefusedArguments, and the tool's body (wrapped by `inWords`) answers it with a tool error
 * (`isError: true`, as the MCP spec has argument errors reported) in words: the tool, the argument
 * as the app names it everywhere else (`facts[0].fact`), what is wrong and what was given
 * ("list_facts: limit: must be at least 1 (it was 0)"; shared/zod-words.ts), control characters
 * escaped. The JSON Schema a client sees is zod's, unchanged.
 */
import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { escapeControls } from '../../shared/escape-controls';
import { fieldPath, zodIssuesInWords } from '../../shared/zod-words';

/** ["facts", 0, "fact"] → "facts[0].fact". */
export const argumentPath = fieldPath;

/** Arguments the schema refused, with why in words; what a tool's body gets in place of its arguments. */
export class RefusedArguments {
  constructor(readonly words: string) {}
}

/** The schema as the SDK takes it: its values, or a RefusedArguments for `inWords` to answer. */
export function namedArguments<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const standard = schema['~standard'] as StandardSchemaWithJSON<z.input<S>, z.output<S>>['~standard'];
  return {
    '~standard': {
      ...standard,
      validate(value: unknown) {
        const parsed = schema.safeParse(value, { reportInput: true });
        if (parsed.success) return { value: parsed.data };
        const words = zodIssuesInWords(parsed.error, { pathOf: fieldPath, unknownField: (path) => `${path}: not an argument of this tool` }).join('; ');
        return { value: new RefusedArguments(escapeControls(words, { lines: true })) as unknown as z.output<S> };
      },
    },
  };
}

/** A tool's body, answering arguments its schema refused with a tool error naming the tool. */
export function inWords<A, X extends unknown[], R>(tool: string, body: (args: A, ...rest: X) => R): (args: A, ...rest: X) => R | CallToolResult {
  return (args, ...rest) => {
    if (args instanceof RefusedArguments) return { content: [{ type: 'text', text: `${tool}: ${args.words}` }], isError: true };
    return body(args, ...rest);
  };
}

/**
 * The schema as clients see it, taking any arguments: for a server that answers every call with
 * why it cannot serve (mcp-refused.ts), which is the answer whatever the arguments.
 */
export function anyArguments<I, O>(schema: StandardSchemaWithJSON<I, O>): StandardSchemaWithJSON<I, O> {
  return { '~standard': { ...schema['~standard'], validate: (value: unknown) => ({ value: value as O }) } };
}

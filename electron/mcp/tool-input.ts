/**
 * How a tool's arguments are checked against its zod schema, as the SDK sees it: a Standard Schema
 * (the SDK's one hook — McpServer validates tool input with `schema['~standard'].validate` and
 * joins the issues it gets back as "path: message", its path dotted, "facts.0.fact"). The issues
 * handed back carry their own words instead: the argument named as the app names it everywhere else
 * (`facts[0].fact: …`, as `facts[0].valid_at: impossible date` from the memory), an unknown argument
 * said to be one, control characters escaped. The JSON Schema a client sees is zod's, unchanged.
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { escapeControls } from '../../shared/escape-controls';

type Issue = z.core.$ZodIssue;

/** ["facts", 0, "fact"] → "facts[0].fact". */
export function argumentPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), '');
}

function said(issue: Issue): string[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${argumentPath([...issue.path, key])}: not an argument of this tool`);
  }
  const at = argumentPath(issue.path);
  return [at ? `${at}: ${issue.message}` : issue.message];
}

/** The schema as the SDK takes it, its refusals in the app's words. */
export function namedArguments<S extends z.ZodType>(schema: S): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const standard = schema['~standard'] as StandardSchemaWithJSON<z.input<S>, z.output<S>>['~standard'];
  return {
    '~standard': {
      ...standard,
      validate(value: unknown) {
        const parsed = schema.safeParse(value);
        if (parsed.success) return { value: parsed.data };
        // One issue: the SDK would join several with commas, which the messages themselves hold.
        return { issues: [{ message: escapeControls(parsed.error.issues.flatMap(said).join('; '), { lines: true }) }] };
      },
    },
  };
}

/**
 * The schema as clients see it, taking any arguments: for a server that answers every call with
 * why it cannot serve (mcp-refused.ts), which is the answer whatever the arguments.
 */
export function anyArguments<I, O>(schema: StandardSchemaWithJSON<I, O>): StandardSchemaWithJSON<I, O> {
  return { '~standard': { ...schema['~standard'], validate: (value: unknown) => ({ value: value as O }) } };
}

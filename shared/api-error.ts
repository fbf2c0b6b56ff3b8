/**
 * The one error shape of the API, whichever transport carries it (Electron IPC, the loopback
 * bridge), and the error class the UI gets:
 *
 *   { code, message, field?, detail? }
 *
 * - code: what kind of failure, for code to branch on (see apiErrorCode).
 * - message: for people; names the call and the field where it can ("listFacts: invalid request:
 *   asOf: must be an ISO-8601 UTC time").
 * - field: the request field (a dotted path, "facts.3.valid_at") or input the failure is about,
 *   when there is one, so a form can point at it.
 * - detail: the failing layer's own finer code, when it has one (a model error's "not_gguf", say).
 *
 * On the wire an error travels as a failure outcome, { ok: false, error: message, code, field?,
 * detail? } (flat: `error` stays the message, as the bridge has always sent it), and a success as
 * { ok: true, value }. failure() and errorFromFailure() convert; both transports use them.
 */
import { z } from 'zod';

export const apiErrorCode = z.enum([
  /** No call of that name. */
  'unknown_call',
  /** The request does not match the call's schema (field: the path of the first problem). */
  'invalid_request',
  /** The request was well-formed but the core refused its content (field: what is wrong). */
  'invalid_input',
  /** What the request names does not exist. */
  'not_found',
  /** The core answered something that breaks the contract (a bug; the answer is withheld). */
  'invalid_response',
  /** A model could not be loaded or a call on it failed (detail: the model layer's code). */
  'model',
  /** Too many calls at once on this connection: try again when some have finished. */
  'busy',
  /** The page is not connected to the core (not yet, no longer, or refused). Raised by clients. */
  'disconnected',
  /** Anything else. */
  'internal',
]);
export type ApiErrorCode = z.infer<typeof apiErrorCode>;

const optionalText = z.string().max(10_000).optional();

export const apiErrorData = z.strictObject({ code: apiErrorCode, message: z.string(), field: optionalText, detail: optionalText });
export type ApiErrorData = z.infer<typeof apiErrorData>;

/** A failed call, as the UI sees it: `message` to show, `code` to branch on, `field` to point at. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly field: string | undefined;
  readonly detail: string | undefined;

  constructor(code: ApiErrorCode, message: string, options: { field?: string | undefined; detail?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
    this.detail = options.detail;
  }

  static fromData(data: ApiErrorData): ApiError {
    return new ApiError(data.code, data.message, { field: data.field, detail: data.detail });
  }

  /** The plain shape (optional parts left out when absent), for sending. */
  toData(): ApiErrorData {
    return withOptional({ code: this.code, message: this.message }, this.field, this.detail);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// ---------- on the wire ----------

export const apiSuccess = z.strictObject({ ok: z.literal(true), value: z.unknown() });
export const apiFailure = z.strictObject({ ok: z.literal(false), error: z.string(), code: apiErrorCode, field: optionalText, detail: optionalText });
/** What a call answers over IPC (and, with type and id added, over the bridge). */
export const apiOutcome = z.discriminatedUnion('ok', [apiSuccess, apiFailure]);

export type ApiFailure = z.infer<typeof apiFailure>;
export type ApiSuccess<T = unknown> = { ok: true; value: T };
export type ApiOutcome<T = unknown> = ApiSuccess<T> | ApiFailure;

/** The failure outcome that carries an error. */
export function failure(error: ApiErrorData | ApiError): ApiFailure {
  const data = error instanceof ApiError ? error.toData() : error;
  const { message, ...rest } = withOptional({ code: data.code, message: data.message }, data.field, data.detail);
  return { ok: false, error: message, ...rest };
}

/** The error a failure outcome carries. */
export function errorFromFailure(outcome: ApiFailure): ApiError {
  return new ApiError(outcome.code, outcome.error, { field: outcome.field, detail: outcome.detail });
}

/**
 * The value of an outcome received from the core; throws the ApiError of a failure, or an
 * `internal` ApiError when what arrived is not an outcome at all.
 */
export function valueOfOutcome(outcome: unknown, where = 'the core'): unknown {
  const parsed = apiOutcome.safeParse(outcome);
  if (!parsed.success) throw new ApiError('internal', `${where} sent an answer this page cannot read (${firstIssueText(parsed.error)})`);
  if (parsed.data.ok) return parsed.data.value;
  throw errorFromFailure(parsed.data);
}

/** "path: message" of a zod error's first issue ("(root)" for the whole value). */
export function firstIssueText(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
}

function withOptional(base: { code: ApiErrorCode; message: string }, field: string | undefined, detail: string | undefined): ApiErrorData {
  return { ...base, ...(field === undefined ? {} : { field }), ...(detail === undefined ? {} : { detail }) };
}

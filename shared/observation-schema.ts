/** A structured observation: one fact as it arrives, before the temporal rules place it. */
import { z } from 'zod';
import { toIsoUtc } from './time';
import { cardinality } from './memory-schema';

const time = z.string().transform((value, ctx) => {
  try {
    return toIsoUtc(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

export const observationInput = z.strictObject({
  subject: z.string().trim().min(1).max(500),
  predicate: z.string().trim().min(1).max(200),
  object: z.string().trim().min(1).max(2000),
  /** 'entity' (default): the object names a person, place or thing; 'literal': a plain value. */
  object_type: z.enum(['entity', 'literal']).default('entity'),
  fact: z.string().trim().min(1).max(4000),
  reference_time: time,
  valid_at: time.nullable().optional().transform((v) => v ?? null),
  invalid_at: time.nullable().optional().transform((v) => v ?? null),
  cardinality: cardinality.default('many'),
  conversation: z.string().min(1).max(200).optional(),
}).superRefine((value, ctx) => {
  const validAt = value.valid_at ?? value.reference_time;
  if (value.invalid_at !== null && value.invalid_at <= validAt) {
    ctx.addIssue({
      code: 'custom',
      path: ['invalid_at'],
      message: `must be after valid_at (${validAt}${value.valid_at === null ? ', taken from reference_time' : ''})`,
    });
  }
});
export type ObservationInput = z.input<typeof observationInput>;
export type Observation = z.output<typeof observationInput>;

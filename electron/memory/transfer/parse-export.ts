/**
 * The first step of an import: is the input an export document at all (its shape, not its
 * references)? Version-1 documents are read by their own schema and upgraded to version 2.
 */
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, memoryExport, memoryExportV1, upgradeExport, type MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';

/** Parses and checks a document's shape. Throws MemoryInputError naming the field. */
export function parseExport(input: unknown): MemoryExport {
  // The document as it is when it passes (most do); zod only for the message when it does not.
  if (isExportDocument(input)) return input.version === 1 ? upgradeExport(input) : input;
  const v1 = typeof input === 'object' && input !== null && (input as { version?: unknown }).version === 1;
  const parsed = v1 ? memoryExportV1.safeParse(input) : memoryExport.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error)}`, parsed.error.issues[0]?.path.join('.') || '(root)');
  return parsed.data.version === 1 ? upgradeExport(parsed.data) : parsed.data;
}

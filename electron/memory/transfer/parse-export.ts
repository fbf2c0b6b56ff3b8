/**
 * The first step of an import: is the input an export document at all (its shape, not its
 * references)? Version-1 and version-2 documents are read by their own schemas and upgraded.
 */
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, memoryExport, memoryExportV1, memoryExportV2, upgradeExport, type MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';

/** Parses and checks a document's shape. Throws MemoryInputError naming the field. */
export function parseExport(input: unknown): MemoryExport {
  // The document as it is when it passes (most do); zod only for the message when it does not.
  if (isExportDocument(input)) return upgradeExport(input);
  const version = typeof input === 'object' && input !== null ? (input as { version?: unknown }).version : undefined;
  const schema = version === 1 ? memoryExportV1 : version === 2 ? memoryExportV2 : memoryExport;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error)}`, parsed.error.issues[0]?.path.join('.') || '(root)');
  return upgradeExport(parsed.data);
}

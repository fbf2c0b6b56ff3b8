/** The first step of an import: is the input an export document at all (its shape, not its references)? */
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, memoryExport, type MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';

/** Parses and checks a document's shape. Throws MemoryInputError naming the field. */
export function parseExport(input: unknown): MemoryExport {
  // The document as it is when it passes (most do); zod only for the message when it does not.
  if (isExportDocument(input)) return input;
  const parsed = memoryExport.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error)}`, parsed.error.issues[0]?.path.join('.') || '(root)');
  return parsed.data;
}

/** The export format (version 3) as a JSON Schema document, generated from the zod schema. */
import { z } from 'zod';
import { EXPORT_FORMAT, EXPORT_VERSION, memoryExport } from './memory-schema';

export function exportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(memoryExport, { target: 'draft-2020-12', unrepresentable: 'any' }),
    $id: 'https://tempora.local/schemas/tempora-memory-v2.json',
    title: `Tempora memory export (${EXPORT_FORMAT}, version ${EXPORT_VERSION})`,
    description:
      'Everything Tempora remembers: conversations, episodes (messages), entities and every version of every fact with its validity interval (valid_at/invalid_at) and system-time interval (created_at/expired_at), and the statements (claims) behind each live fact. Vectors are derived and not exported.',
  };
}

/**
 * Writes resources/tempora-memory.schema.json from the zod schema of the export format, so the
 * documented JSON Schema and the validator can never disagree (test/unit/export-schema.test.ts
 * fails when the file is stale). Run: npx tsx scripts/write-export-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exportJsonSchema } from '../shared/export-json-schema';

const target = fileURLToPath(new URL('../resources/tempora-memory.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(exportJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target}`);

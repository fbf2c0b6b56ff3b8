import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportJsonSchema } from '../../shared/export-json-schema';

describe('resources/tempora-memory.schema.json', () => {
  it('is the JSON Schema of the export validator (regenerate with npx tsx scripts/write-export-schema.ts)', () => {
    const file = JSON.parse(readFileSync(new URL('../../resources/tempora-memory.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(exportJsonSchema());
  });

  it('documents every field of a fact with its meaning', () => {
    const schema = exportJsonSchema() as { properties: { facts: { items: { properties: Record<string, { description?: string }> } } } };
    for (const [name, field] of Object.entries(schema.properties.facts.items.properties)) expect(field.description, name).toBeTruthy();
  });
});

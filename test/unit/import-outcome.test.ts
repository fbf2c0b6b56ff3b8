/**
 * importOutcome (shared/import-outcome.ts): what the Import screen and `tempora import --dry-run` say an import of the
 * previewed file would do — new records, ids here already, and entities that join the ones here.
 */
import { describe, expect, it } from 'vitest';
import { importOutcome } from '../../shared/import-outcome';

const file = { conversations: 2, episodes: 10, entities: 4, facts: 20, clashes: 0, joins: 0 };

describe('importOutcome', () => {
  it('counts every record as new when nothing is here', () => {
    expect(importOutcome(file)).toBe('All of it is new here: importing adds 36 records.');
    expect(importOutcome({ ...file, conversations: 0, episodes: 0, entities: 0, facts: 1 })).toBe('All of it is new here: importing adds 1 record.');
    expect(importOutcome({ ...file, conversations: 0, episodes: 0, entities: 0, facts: 0 })).toBe('It holds nothing to import.');
  });

  it('does not count an entity that joins one here (you, a name here) as added', () => {
    expect(importOutcome({ ...file, joins: 1 })).toBe('Importing adds 35 records; 1 entity is here already under another id (you, or the same name): its facts join it.');
    expect(importOutcome({ ...file, joins: 4 })).toBe('Importing adds 32 records; 4 entities are here already under another id (you, or the same name): their facts join them.');
    expect(importOutcome({ conversations: 0, episodes: 0, entities: 1, facts: 0, clashes: 0, joins: 1 })).toBe('Importing adds nothing new; 1 entity is here already under another id (you, or the same name): its facts join it.');
  });

  it('says which ids are here already, and the joins beside them', () => {
    expect(importOutcome({ ...file, clashes: 36 })).toBe('All 36 records already exist here (same ids): importing adds nothing new. Import refuses them unless you replace them.');
    expect(importOutcome({ ...file, clashes: 30 })).toBe('6 records are new here; 30 already exist here (same ids). Import refuses them unless you replace them.');
    expect(importOutcome({ ...file, clashes: 30, joins: 1 })).toBe('5 records are new here; 30 already exist here (same ids). Import refuses them unless you replace them. 1 entity is here already under another id (you, or the same name): its facts join it.');
    expect(importOutcome({ ...file, clashes: 1 })).toBe('35 records are new here; 1 already exists here (same ids). Import refuses it unless you replace it.');
  });
});

/**
 * A name only forgotten facts held goes with them (issue #27 item 8): forgetting the only fact about
 * "Aoki" leaves no entity "Aoki"; a name another fact still uses — as subject or as object, in any
 * version — stays, and the user is never removed. Each forget says which names it removed.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';

const open = () => openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
const names = (memory: Memory) => memory.entities.all().map((e) => e.name).sort();
const line = (subject: string, predicate: string, object: string, extra: Record<string, unknown> = {}) => ({
  subject,
  predicate,
  object,
  fact: `${subject} ${predicate} ${object}.`,
  reference_time: '2026-09-01T00:00:00Z',
  ...extra,
});
const factOf = (memory: Memory, object: string) => memory.facts.list({ history: true }).find((f) => f.object === object)!;

describe('forget removes the names nothing else needs', () => {
  it('a fact: its subject and object go when no other fact names them; the user stays', () => {
    const memory = open();
    memory.facts.observe([line('me', 'manager', 'Aoki'), line('Sato', 'likes', 'tea')]);
    const forgotten = memory.facts.forget(factOf(memory, 'Aoki').id);
    expect(forgotten.entityNames).toEqual(['Aoki']);
    expect(forgotten.entityIds).toHaveLength(1);
    expect(names(memory)).toEqual(['Sato', 'me', 'tea']);
    memory.close();
  });

  it('a name another fact uses stays: as the subject, as the object, or only in a closed or replaced version', () => {
    const memory = open();
    memory.facts.observe([
      line('Aoki', 'likes', 'tea'),
      line('Sato', 'knows', 'Aoki'),
      line('Tanaka', 'lives in', 'Kyoto', { cardinality: 'one', valid_at: '2020-01-01' }),
      line('Tanaka', 'lives in', 'Osaka', { cardinality: 'one', valid_at: '2024-01-01' }),
      line('Mori', 'likes', 'Kyoto'),
    ]);
    // Aoki is the subject of one fact and the object of another: forgetting either keeps Aoki.
    expect(memory.facts.forget(factOf(memory, 'tea').id).entityNames).toEqual(['tea']);
    expect(names(memory)).toContain('Aoki');
    // Kyoto: named by Tanaka's closed version and by Mori's fact; forget Mori's, Kyoto stays.
    expect(memory.facts.forget(factOf(memory, 'Kyoto').id).entityNames).toEqual([]);
    expect(names(memory)).toContain('Kyoto');
    memory.close();
  });

  it('an entity: the names only its facts held go with it, and are named', () => {
    const memory = open();
    memory.facts.observe([line('Aoki', 'works at', 'Initech'), line('Aoki', 'knows', 'Sato'), line('Sato', 'likes', 'tea')]);
    const forgotten = memory.facts.forgetEntity('Aoki');
    expect(forgotten.entityNames).toEqual(['Aoki', 'Initech']);
    expect(names(memory)).toEqual(['Sato', 'tea']);
    memory.close();
  });

  it('a message: the names only its facts held go', () => {
    const memory = open();
    const summary = memory.facts.observe([line('me', 'manager', 'Aoki'), line('me', 'likes', 'tea')]);
    const forgotten = memory.messages.forget(summary.episodeIds[0]!);
    expect(forgotten.entityNames).toEqual(['Aoki']);
    expect(names(memory)).toEqual(['me', 'tea']);
    memory.close();
  });
});

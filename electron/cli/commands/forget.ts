/** `tempora forget`: the only delete — a fact with all its versions, an entity with its facts, or a message. */
import type { FactForgotten, Forgotten, Memory } from '../../memory/index';
import type { CommandSpec } from '../command';
import { UsageError } from '../errors';
import { escapeControls, plural, printJson, printLines } from '../output';

export const forgetCommand: CommandSpec = {
  name: 'forget',
  summary: 'delete a fact (every version), an entity and its facts, or a source message',
  synopsis: 'forget (FACT_ID [--with-sources] | --entity NAME | --episode ID)',
  description: [
    'FACT_ID: every version of that fact; with --with-sources also the messages it came from that are the',
    'source of nothing else (each message kept is listed with why). --entity: the entity (name, alias or id) and every fact',
    'naming it. --episode: the message and the facts that only it supports.',
    'Removed from every table and index; facts it had closed are re-resolved.',
    'Prints what was removed (--json: { factIds, entityIds, episodeIds }, and for a fact { sources: { deleted, kept } }).',
  ],
  options: {
    entity: { type: 'string', help: ['--entity NAME', 'forget this entity and every fact about it'] },
    episode: { type: 'string', help: ['--episode ID', 'forget this message and the facts only it supports'] },
    'with-sources': { type: 'boolean', help: ['--with-sources', 'with FACT_ID: also delete its source messages that support nothing else'] },
  },
  positionals: { min: 0, max: 1, name: 'FACT_ID' },
  run(ctx) {
    const factId = ctx.positionals[0];
    const entity = ctx.string('entity');
    const episode = ctx.string('episode');
    const given = [factId, entity, episode].filter((v) => v !== undefined).length;
    if (given !== 1) throw new UsageError('forget needs exactly one of FACT_ID, --entity NAME, --episode ID', 'forget');
    const withSources = ctx.flag('with-sources');
    if (withSources && factId === undefined) throw new UsageError('--with-sources goes with FACT_ID (a message forgotten with --episode is its own source)', 'forget');
    const { forgotten, label } = ctx.withMemory((memory) => {
      if (entity !== undefined) {
        const label = entityLabel(memory, entity);
        return { forgotten: memory.facts.forgetEntity(entity), label };
      }
      if (episode !== undefined) return { forgotten: memory.messages.forget(episode), label: `message ${episode}` };
      return { forgotten: memory.facts.forget(factId!, { withSources }), label: `fact ${factId!}` };
    });
    if (ctx.json) return printJson(ctx.io, forgotten);
    printLines(ctx.io, describeForgotten(label, forgotten));
  },
};

function entityLabel(memory: Memory, nameOrId: string): string {
  const found = memory.entities.byId(nameOrId) ?? memory.entities.find(nameOrId);
  return escapeControls(found ? `entity ${JSON.stringify(found.name)} (${found.id})` : `entity ${JSON.stringify(nameOrId)}`);
}

function describeForgotten(label: string, forgotten: Forgotten): string[] {
  const lines = [
    `Forgot ${label}: ${plural(forgotten.factIds.length, 'fact version')}, ${plural(forgotten.entityIds.length, 'entity', 'entities')}, ` +
      `${plural(forgotten.episodeIds.length, 'message')} removed.`,
  ];
  for (const id of forgotten.factIds) lines.push(`  fact     ${id}`);
  forgotten.entityIds.forEach((id, i) => lines.push(`  entity   ${id} (${escapeControls(forgotten.entityNames[i] ?? '')})`));
  for (const id of forgotten.episodeIds) lines.push(`  message  ${id}`);
  if ('sources' in forgotten) lines.push(...describeSources(forgotten as FactForgotten));
  return lines;
}

function describeSources({ sources }: FactForgotten): string[] {
  const lines: string[] = [];
  for (const s of sources.deleted) lines.push(`deleted: ${escapeControls(JSON.stringify(s.excerpt))} (${s.id}), the source of nothing else`);
  for (const s of sources.kept) lines.push(`kept: ${escapeControls(JSON.stringify(s.excerpt))} (${s.id}) — ${s.reason}`);
  if (sources.kept.some((s) => s.otherFacts === 0)) lines.push('(add --with-sources to delete the messages that are the source of nothing else)');
  return lines;
}

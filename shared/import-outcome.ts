/**
 * What an import of a previewed file would do, apart from what the file holds: the preview counts
 * the file's records by kind and, as one total, those whose ids are here already (clashes). All of
 * them new: "importing adds 621 records"; all here already: "importing adds nothing new", refused
 * unless replaced; some of each: how many are new and how many are here. An entity of the file that
 * is here under another id (the user, a name here) is not added: its facts join the one here, as the
 * import does (import-entities.ts), and the sentence says so. The Import screen's preview and
 * `tempora import --dry-run` say it.
 */
import type { ImportPreview } from './api-contract';
import { formatCount, plural } from './count-words';

function joining(joins: number): string {
  if (joins === 0) return '';
  const one = joins === 1;
  return `${plural(joins, 'entity', 'entities')} ${one ? 'is' : 'are'} here already under another id (you, or the same name): ${one ? 'its facts join it' : 'their facts join them'}.`;
}

export function importOutcome(p: Pick<ImportPreview, 'facts' | 'entities' | 'episodes' | 'conversations' | 'clashes' | 'joins'>): string {
  const total = p.facts + p.entities + p.episodes + p.conversations;
  if (total === 0) return 'It holds nothing to import.';
  const joinWords = joining(p.joins);
  if (p.clashes === 0) {
    if (p.joins === 0) return `All of it is new here: importing adds ${plural(total, 'record')}.`;
    const fresh = total - p.joins;
    return `Importing adds ${fresh === 0 ? 'nothing new' : plural(fresh, 'record')}; ${joinWords}`;
  }
  const them = p.clashes === 1 ? 'it' : 'them';
  const refused = `Import refuses ${them} unless you replace ${them}.`;
  if (p.clashes >= total) {
    const here = total === 1 ? 'Its one record already exists here (same id)' : `All ${formatCount(total)} records already exist here (same ids)`;
    return `${here}: importing adds nothing new. ${refused}`;
  }
  const fresh = total - p.clashes - p.joins;
  return `${plural(fresh, 'record')} ${fresh === 1 ? 'is' : 'are'} new here; ${formatCount(p.clashes)} already ${p.clashes === 1 ? 'exists' : 'exist'} here (same ids). ${refused}${joinWords ? ` ${joinWords}` : ''}`;
}

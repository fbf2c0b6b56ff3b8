/**
 * What an import of a previewed file would do, apart from what the file holds: the preview counts
 * the file's records by kind and, as one total, those whose ids are here already (clashes). All of
 * them new: "importing adds 621 records"; all here already: "importing adds nothing new", refused
 * unless replaced; some of each: how many are new and how many are here.
 */
import type { ImportPreview } from '../../../shared/api-contract';
import { formatCount, plural } from '../common/format';

export function importOutcome(p: Pick<ImportPreview, 'facts' | 'entities' | 'episodes' | 'conversations' | 'clashes'>): string {
  const total = p.facts + p.entities + p.episodes + p.conversations;
  if (total === 0) return 'It holds nothing to import.';
  if (p.clashes === 0) return `All of it is new here: importing adds ${plural(total, 'record')}.`;
  const them = p.clashes === 1 ? 'it' : 'them';
  const refused = `Import refuses ${them} unless you replace ${them}.`;
  if (p.clashes >= total) {
    const here = total === 1 ? 'Its one record already exists here (same id)' : `All ${formatCount(total)} records already exist here (same ids)`;
    return `${here}: importing adds nothing new. ${refused}`;
  }
  const fresh = total - p.clashes;
  return `${plural(fresh, 'record')} ${fresh === 1 ? 'is' : 'are'} new here; ${formatCount(p.clashes)} already ${p.clashes === 1 ? 'exists' : 'exist'} here (same ids). ${refused}`;
}

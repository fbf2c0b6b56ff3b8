/**
 * The Timeline at a known-at before anything was recorded says so, and when the first facts were
 * recorded, instead of an empty chart: "Nothing was recorded yet on 1 Jun 2026 — the first facts
 * were recorded on 2 Dec 2026." (firstRecorded: one indexed read, asked only while known-at is set).
 */
import { useQuery } from '@tanstack/react-query';
import { formatAt } from '../../../shared/time-format';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';

export function NothingRecordedYet({ knownAt }: { knownAt: string | null }) {
  const api = useApi();
  const format = useTimeFormat();
  const first = useQuery({ queryKey: memoryKeys.firstRecorded, queryFn: () => api.firstRecorded({}), enabled: knownAt !== null });
  if (knownAt === null || !first.data) return null;
  const at = first.data.at;
  if (at !== null && Date.parse(at) <= Date.parse(knownAt)) return null;
  const when = formatMoment(knownAt, format);
  return (
    <p className="empty-state" role="status" data-testid="nothing-recorded">
      {at === null
        ? `Nothing was recorded yet on ${when} — the memory holds no facts yet.`
        : `Nothing was recorded yet on ${when} — the first facts were recorded on ${formatAt(at, 'day', format)}.`}
    </p>
  );
}

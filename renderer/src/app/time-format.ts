/**
 * The user's zone and locale for every time the page shows or reads: the zone from main's
 * timeSettings (fetched once, kept until the setting changes or the connection is new), the locale
 * from the browser. Until the answer comes, the browser's own zone stands in.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TimeSettings } from '../../../shared/api-contract';
import type { TimeFormat } from '../../../shared/time-format';
import { displayZone, systemTimeZone } from '../common/zoned-time';
import { useApi } from './api-context';
import { settingsKeys } from './query-keys';

export interface UserTimeFormat extends TimeFormat {
  /** The zone as the setting names it, for labels ("Asia/Tokyo", "+09:00"). */
  zoneName: string;
  /** Whether the zone is settled: main's answer, or its failure (the browser's zone then stands). False while it loads. */
  known: boolean;
}

const browserLocale = () => (typeof navigator !== 'undefined' && navigator.language) || 'en-US';

export function useTimeSettings() {
  const api = useApi();
  return useQuery<TimeSettings>({ queryKey: settingsKeys.time, queryFn: () => api.timeSettings({}), staleTime: Infinity });
}

export function useTimeFormat(): UserTimeFormat {
  const settings = useTimeSettings();
  const zoneName = settings.data?.timeZone ?? systemTimeZone();
  const known = settings.data !== undefined || settings.isError;
  return useMemo(() => ({ timeZone: displayZone(zoneName), locale: browserLocale(), zoneName, known }), [zoneName, known]);
}

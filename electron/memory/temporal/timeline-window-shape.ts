/** What the timeline's window is asked and answers (timeline-window.ts, timeline-kept-window.ts). */
import type { FactRecord } from '../../../shared/memory-schema';
import type { TimelineDensity } from './timeline-density';
import type { IsoTime } from '../../../shared/time';

export interface TimelineWindowQuery {
  from: IsoTime;
  to: IsoTime;
  knownAt?: IsoTime;
  filter?: string;
  rowOffset?: number;
  rowLimit?: number;
  /** Rows grouped by subject under header rows (absent: the rows alone). */
  groups?: { collapseAbove?: number; expanded?: readonly string[]; collapsed?: readonly string[] };
}

/** A header row: the subject's group, summarised over all its rows. */
export interface TimelineGroupInfo {
  /** Rows (subject + predicate) in the group. */
  rows: number;
  collapsed: boolean;
}

export interface TimelineRowSummary {
  subject_id: string;
  subject: string;
  predicate: string;
  /** Facts of the row, at every valid time. */
  count: number;
  /** The earliest start and the latest start or end of the row's facts. */
  first: IsoTime;
  last: IsoTime;
  /** Some fact of the row is still true. */
  open: boolean;
  /** Facts of the row that ended: each one a change. */
  changes: number;
  /** Facts that ended before the range / begin after it (not in `facts`). */
  before: number;
  after: number;
  /** The row's facts overlapping [from, to), by valid time (none for a group header). */
  facts: FactRecord[];
  /** Set on a group header row (its predicate is ''). */
  group?: TimelineGroupInfo;
  /** On a group header: its facts' starts and ends in the range, for its summary bar and Fit (timeline-marks.ts). */
  marks?: TimelineDensity;
}

export interface TimelineWindow {
  /** Rows shown in all (with the filter; group headers counted, collapsed groups' rows not), of which `rows` are those from rowOffset. */
  totalRows: number;
  /** Subject + predicate rows in all (with the filter), shown or not. */
  totalSlots: number;
  /** With groups: whether groups not toggled are collapsed. */
  collapsedByDefault: boolean;
  rows: TimelineRowSummary[];
  /** The earliest start and the latest start or end over every row (null: no facts). */
  first: IsoTime | null;
  last: IsoTime | null;
  /** Where the facts begin and end over [first, last] (timeline-density.ts; null: no facts). */
  density: TimelineDensity | null;
}

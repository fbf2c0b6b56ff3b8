/** What an import keeps of each fact between its two passes (import-checks.ts): what its rules and its row need, never its text. */
import type { SlotFact } from './import-slot-rules';
import type { IsoTime } from '../../../shared/time';

/** What an import keeps of a fact between its passes. */
export interface CheckedFact extends SlotFact {
  supersedes: string | null;
  invalidated_by: string | null;
  /** When it was first said: the earliest reference time of its episodes; undefined when it cites none. */
  firstSaid: IsoTime | undefined;
  /** The document has claims behind it (format 3). */
  claimed: boolean;
  /** The reference time of its head claim (the first that says its start). */
  headTime: IsoTime | undefined;
  /** How it ended, by the first of its claims that ends where it does. */
  endKind: 'explicit' | 'judged' | undefined;
}


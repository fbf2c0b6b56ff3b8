/** The memory's notion of "now". Injectable so tests can move time; always ISO UTC with ms. */
import { isoFromMs, type IsoTime } from '../../../shared/time';

export interface Clock {
  now(): IsoTime;
}

/** Wall clock that never goes backwards within a process (system clock steps are absorbed). */
export function systemClock(): Clock {
  let last = 0;
  return {
    now() {
      last = Math.max(last, Date.now());
      return isoFromMs(last);
    },
  };
}

/** A clock for tests: starts at `start` and advances `stepMs` on every read. */
export function steppingClock(start: IsoTime, stepMs = 1): Clock {
  let t = Date.parse(start);
  return {
    now() {
      const value = isoFromMs(t);
      t += stepMs;
      return value;
    },
  };
}

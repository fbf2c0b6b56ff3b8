/** A quiet note while messages are being learned (ingestion pending + running). */
import { hrefOf } from '../app/router';
import type { QueueCounts } from '../app/model-status';
import { plural } from '../common/format';

export function LearningIndicator({ counts }: { counts: QueueCounts | undefined }) {
  const busy = counts ? counts.pending + counts.running : 0;
  return (
    <div className="learning" role="status" aria-live="polite">
      {busy > 0 && (
        <span className="learning-busy">
          <span className="pulse" aria-hidden="true" /> Learning from {plural(busy, 'message')}…
        </span>
      )}
      {counts && counts.parked > 0 && (
        <a className="learning-parked" href={hrefOf({ screen: 'settings', section: 'parked' })}>
          {plural(counts.parked, 'message')} could not be learned
        </a>
      )}
    </div>
  );
}

/** "Times in Asia/Tokyo" under a screen's title, linking to Settings, where the zone is changed. */
import { hrefOf } from '../app/router';

export function ZoneNote({ zoneName }: { zoneName: string }) {
  return (
    <span className="zone-note">
      Times in {zoneName} (<a href={hrefOf({ screen: 'settings' })}>change</a>).
    </span>
  );
}

/**
 * Settings: the time zone every time is shown and read in, the learning queue (with the parked
 * messages and the imported chats' learning) and review before remembering, other agents over MCP
 * (and connecting one: AgentConnect),
 * and where the memory lives on this computer. Every "(change)" link in the app comes here;
 * #/settings/parked scrolls to the parked messages.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context';
import { useModelStatus } from '../app/model-status';
import { ErrorText } from '../common/ErrorText';
import { AgentConnect } from './AgentConnect';
import { IngestionQueue } from './IngestionQueue';
import { McpSetting } from './McpSetting';
import { SyncSetting } from './SyncSetting';
import { MemoryLocation } from './MemoryLocation';
import { reviewKeys, ReviewSetting } from './ReviewSetting';
import { TimeZoneSetting } from './TimeZoneSetting';

export function SettingsScreen() {
  const api = useApi();
  const status = useModelStatus();
  const review = useQuery({ queryKey: reviewKeys.settings, queryFn: () => api.reviewSettings({}) });
  return (
    <div className="settings-screen">
      <header className="screen-header">
        <h1>Settings</h1>
        <p className="muted">How Tempora reads times, learns, and shares the memory; everything stays on this computer.</p>
      </header>
      <div className="settings-grid">
        <TimeZoneSetting />
        <section className="card" aria-labelledby="review-setting-title">
          <h2 id="review-setting-title">Before remembering</h2>
          <ReviewSetting settings={review.data} />
          <ErrorText error={review.error} />
        </section>
        <ErrorText error={status.error} />
        {status.data && <IngestionQueue status={status.data} />}
        <SyncSetting />
        <McpSetting />
        <AgentConnect />
        <MemoryLocation />
      </div>
    </div>
  );
}

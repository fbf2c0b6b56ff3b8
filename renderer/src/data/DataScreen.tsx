import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import { ChatImportPanel } from './ChatImportPanel';

export function DataScreen() {
  return (
    <div className="data-screen">
      <header className="screen-header">
        <h1>Export / Import</h1>
        <p className="muted">Your memory is yours: take it with you as a documented JSON file.</p>
      </header>
      <div className="data-grid">
        <ExportPanel />
        <ImportPanel />
        <ChatImportPanel />
      </div>
    </div>
  );
}

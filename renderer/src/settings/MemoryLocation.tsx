/**
 * Where the memory lives: the data directory (the memory's database, its vectors and the settings)
 * and the models folder, as paths to copy (a backup, or `tempora --data DIR` on the command line).
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/api-context';
import { settingsKeys } from '../app/query-keys';
import { ErrorText } from '../common/ErrorText';

export function MemoryLocation() {
  const api = useApi();
  const location = useQuery({ queryKey: settingsKeys.location, queryFn: () => api.memoryLocation({}), staleTime: Infinity });
  const where = location.data;
  return (
    <section className="card memory-location" aria-labelledby="memory-location-title">
      <h2 id="memory-location-title">Where the memory lives</h2>
      <ErrorText error={location.error} />
      {where && (
        <dl className="paths">
          <dt>Memory, vectors and settings</dt>
          <dd>
            <code data-testid="data-dir">{where.dataDir}</code>
          </dd>
          <dt>Models</dt>
          <dd>
            <code data-testid="models-dir">{where.modelsDir}</code>
          </dd>
        </dl>
      )}
      <p className="muted small">Everything Tempora remembers is in this folder on this computer. Export / Import makes a file you can keep or move elsewhere.</p>
    </section>
  );
}

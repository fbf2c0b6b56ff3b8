/** Chat without a chat model: say why and where to get one; the memory screens work regardless. */
import { hrefOf } from '../app/router';

export function NoModelNotice({ lastError }: { lastError: string | null }) {
  return (
    <section className="notice" aria-labelledby="no-model-title">
      <h2 id="no-model-title">No chat model is loaded</h2>
      <p>
        Tempora answers with a language model that runs on this computer (a GGUF file). Open{' '}
        <a href={hrefOf({ screen: 'models' })}>Models</a> to download a recommended one for this machine, or pick a GGUF file you already
        have, then load it for chat.
      </p>
      <p className="muted">Your memory still works without a model: browse it in the Timeline and Facts, edit it, export or import it.</p>
      {lastError && <p className="muted">Last model error: {lastError}</p>}
    </section>
  );
}

/** Engine events to every bridge client, each checked against the contract and encoded once. */
import { apiEventEnvelope, type ApiEventEnvelope } from '../../shared/api-contract';
import type { EventMessage } from '../../shared/bridge-protocol';
import type { TemporaEngine } from '../engine/engine';

export interface EventTargets {
  /** How many clients are connected. */
  readonly size: number;
  /** Sends one text frame to every client. */
  broadcast(text: string): void;
}

/** Forwards the engine's events to `targets` until the returned function is called. */
export function fanOutEvents(engine: Pick<TemporaEngine, 'onEvent'>, targets: EventTargets, log: (message: string) => void): () => void {
  return engine.onEvent((event: ApiEventEnvelope) => {
    if (targets.size === 0) return;
    const checked = checkedEvent(event);
    if (!checked) {
      log(`bridge: dropped a ${event.name} event that does not match the contract`);
      return;
    }
    targets.broadcast(JSON.stringify({ type: 'event', event: checked } satisfies EventMessage));
  });
}

/** The event when its payload matches the contract, else null (never sent). */
export function checkedEvent(event: ApiEventEnvelope): ApiEventEnvelope | null {
  const parsed = apiEventEnvelope.safeParse(event);
  return parsed.success ? parsed.data : null;
}

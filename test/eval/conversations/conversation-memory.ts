/**
 * The conversation set's memory: the dialogues told through the app's write path for structured
 * facts (`memory.observe`, session by session in time order, each fact's reference_time its message's
 * time), on top of generated filler people and facts when a size is asked for — the scale eval's
 * synthetic life (scale-memory.ts), imported first — so the questions stay the same at every size.
 */
import { openMemory, steppingClock, type Memory } from '../../../electron/memory/index';
import { scaleDocument, SCALE_NOW } from '../scale-memory';
import { conversationDialogues, observationCount, type Dialogue } from './dialogues';

/** "Now" for the set: after every session (the last ends in autumn 2026) and every filler record. */
export const CONVERSATIONS_NOW = SCALE_NOW;

export interface ConversationMemory {
  memory: Memory;
  dialogues: Dialogue[];
  /** Observations of the dialogues and of the filler. */
  dialogueObservations: number;
  fillerObservations: number;
}

/**
 * A store holding the dialogues and, with `size`, filler observations up to about `size` facts in
 * all (none when the dialogues alone reach it).
 */
export function buildConversationMemory(size = 0, dialogues: Dialogue[] = conversationDialogues()): ConversationMemory {
  const memory = openMemory({ dataDir: ':memory:', clock: steppingClock(CONVERSATIONS_NOW, 1) });
  const dialogueObservations = observationCount(dialogues);
  const fillerObservations = Math.max(0, size - dialogueObservations);
  if (fillerObservations > 0) memory.transfer.import(scaleDocument(fillerObservations));
  const sessions = dialogues.flatMap((d) => d.sessions).sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
  for (const session of sessions) {
    memory.facts.observe(session.observations.map((o) => ({ ...o, conversation: session.id })), { where: `conversations:${session.id}`, conversation: { id: session.id, title: session.title } });
  }
  return { memory, dialogues, dialogueObservations, fillerObservations };
}

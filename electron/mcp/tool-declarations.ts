/**
 * What each MCP tool is, as clients see it in tools/list: its title, the description a model reads,
 * its input schema (refusing in the app's words: tool-input.ts), its output schema and the hints a
 * client may act on. memory-tools.ts gives each its body; a server that cannot serve (mcp-refused.ts)
 * lists the same tools.
 */
import { namedArguments } from './tool-input';
import * as s from './tool-schemas';

const AXES =
  'Two time axes: as_of is valid time (what was true in the world then: "who was my manager on 10 Sep?"); ' +
  'known_at is system time (what Tempora had been told by then, before later corrections). Both default to now.';

export const TOOLS = {
  remember_facts: {
    title: 'Remember facts',
    description:
      'Store facts you extracted yourself (subject, predicate, object, a standalone sentence), with when each became true. ' +
      'Use it when the user tells you something lasting about themselves or their world. With cardinality "one" a new value ' +
      'closes the old one (a new manager ends the previous), so history is kept, not overwritten. One write for all facts; ' +
      'returns the facts added, closed and confirmed, with ids. When the user reviews before remembering, the facts wait ' +
      'for their approval (held_for_review) and nothing is remembered yet.',
    inputSchema: namedArguments(s.rememberFactsInput),
    outputSchema: s.rememberFactsOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  remember_message: {
    title: 'Remember a message',
    description:
      "Store a message as said, for Tempora's own local model to read and learn facts from (with their times). " +
      'Use it when you would rather not extract facts yourself. Learning is asynchronous: the result says whether a model ' +
      'is learning it now or it is queued until a Tempora process with a model runs. A retry with the same reference_time ' +
      'changes nothing (duplicate: true); without one, the same text again is a new message, said now.',
    inputSchema: namedArguments(s.rememberMessageInput),
    outputSchema: s.rememberMessageOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  search_memory: {
    title: 'Search memory',
    description:
      'Find what Tempora knows that is relevant to a question (full text over facts, names and source messages, plus vectors ' +
      'when an embedding model is loaded) — the same retrieval its own chat uses. Use it before answering anything about the ' +
      `user, their people, places and plans, or "when" something was. ${AXES} A time named in the query ("on 2026-09-10") is ` +
      'answered as of it.',
    inputSchema: namedArguments(s.searchMemoryInput),
    outputSchema: s.searchMemoryOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  list_facts: {
    title: 'List facts',
    description: `List stored facts, filtered by subject, predicate or entity. ${AXES} include_history lists closed facts and superseded versions too.`,
    inputSchema: namedArguments(s.listFactsInput),
    outputSchema: s.listFactsOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  fact_history: {
    title: 'Fact history',
    description: 'Every version of one fact (corrections and closings), the messages it came from, the fact that ended it and the facts it ended.',
    inputSchema: namedArguments(s.factHistoryInput),
    outputSchema: s.factHistoryOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  correct_fact: {
    title: 'Correct a fact',
    description:
      'Correct a stored fact (its sentence, object, start or end) when the user says it is wrong. Nothing is overwritten: a new ' +
      'version supersedes the old, so known_at still shows what was believed before. invalid_at null reopens a closed fact.',
    inputSchema: namedArguments(s.correctFactInput),
    outputSchema: s.factOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  close_fact: {
    title: 'Close a fact',
    description: 'Record that a fact stopped being true at a time ("I left that job in March"). The fact stays in history; as_of before that time still finds it.',
    inputSchema: namedArguments(s.closeFactInput),
    outputSchema: s.factOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  forget_fact: {
    title: 'Forget a fact',
    description:
      'Delete a fact with every version, from every index — only when the user asks to forget it (it was never true, or is private). ' +
      'To record that something ended, use close_fact instead. A fact it had closed is reopened. ' +
      'with_sources: also delete the messages it came from that support nothing else; the result names each message kept and why.',
    inputSchema: namedArguments(s.forgetFactInput),
    outputSchema: s.forgetFactOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
} as const;

/**
 * How an agent should use Tempora's two time axes, as the resource `tempora://guide/time-axes`
 * (text/markdown, for clients that attach resources) and the prompt `time-axes` (for clients that
 * offer prompts to the user): the same words in both. The tools' own descriptions say each argument;
 * this says when to reach for which.
 */
import type { McpServer } from '@modelcontextprotocol/server';

export const TIME_AXES_URI = 'tempora://guide/time-axes';

export const TIME_AXES_GUIDE = `# Tempora's two time axes

Every fact Tempora keeps has two kinds of time. Use the right one, or the answer is about the wrong moment.

## Valid time (when it was true in the world) — \`as_of\`
- In valid time a fact holds from \`valid_at\` until \`invalid_at\` (open: still true). "My manager was A until 15 September, then B."
- Ask about the past with \`as_of\`: \`search_memory { query: "manager", as_of: "2026-09-10" }\` answers with what was
  true by the end of that day, even if it changed since (a day, week, month or year means its end; "今日" is now).
  Without \`as_of\` you get what is true now.
- When the user says something changed, record when: \`remember_facts\` with \`valid_at\` (and cardinality "one" so the
  new value ends the old one), or \`close_fact { id, at }\` when something simply stopped ("I left in March").

## Known-at (system time): when Tempora was told — \`known_at\`
- Tempora never overwrites: a correction is a new version, and the old one stays in the record.
- \`known_at\` answers "what did Tempora believe at that moment?", before later corrections: use it to explain an earlier
  answer, or to audit what changed.
- \`include_history: true\` (list_facts, search_memory) shows ended facts and superseded versions too;
  \`fact_history { id }\` shows every version of one fact and where it came from.

## Which write
- It was never true, a mistake in what was stored → \`correct_fact\` (a new version; the old one stays in history).
- It was true and stopped being true → \`close_fact\` (it stays findable with \`as_of\` before the end).
- The user asks you to forget it → \`forget_fact\` (the only delete; every version goes).

## Times
ISO-8601 (\`2026-09-10\`, \`2026-09-10T09:00\`, with or without an offset) or phrases ("yesterday", "last March"), read
in the user's time zone. A date alone means that day; a month alone, that month. Results say times in words in the
user's zone, and keep ISO-8601 UTC in the structured content.
`;

export function registerTimeAxesGuide(server: McpServer): void {
  server.registerResource(
    'time-axes-guide',
    TIME_AXES_URI,
    {
      title: 'How to use the two time axes',
      description: 'When to use as_of (valid time: true in the world) and known_at (when Tempora was told), and which write to use when something changes.',
      mimeType: 'text/markdown',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: TIME_AXES_GUIDE }] }),
  );
  server.registerPrompt(
    'time-axes',
    {
      title: 'Use Tempora’s time axes',
      description: 'Tells the agent how to ask Tempora about the past (as_of), about what it was told when (known_at), and how to record changes.',
    },
    () => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: TIME_AXES_GUIDE } }] }),
  );
}

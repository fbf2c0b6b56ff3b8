/**
 * `tempora undo MESSAGE_ID` and `tempora redo MESSAGE_ID`: from the terminal, what `/undo` and
 * `/redo` do inside `tempora chat` and Undo / Redo do under a message in the app — take back what a
 * message taught (in one write; the message stays, and is never learned again), then apply that same
 * learning again by the rules, without a model. A message is named by its id as `tempora show
 * FACT_ID` lists it under "Source messages" (or as `tempora review` lists it, or the id given on an
 * ingested line).
 */
import { learningSummary, undoSummary } from '../../../shared/learning-contract';
import type { CommandSpec } from '../command';
import { escapeControls, formatValidity, printJson, printLines } from '../output';

/** "“I moved to Osaka.”": the message's first line, cut at 80 characters, for a summary line. */
function quoted(content: string | undefined): string {
  if (content === undefined) return '';
  const line = content.split('\n')[0]!;
  return ` (“${escapeControls(line.length > 80 ? `${line.slice(0, 79)}…` : line)}”)`;
}

export const undoCommand: CommandSpec = {
  name: 'undo',
  summary: 'take back what a message taught (the message stays)',
  synopsis: 'undo MESSAGE_ID',
  description: [
    "MESSAGE_ID: a message's id, as `tempora show FACT_ID` lists it under Source messages (or `tempora review`).",
    'The facts it added are forgotten, the facts it closed are open again, the facts it confirmed no longer cite it;',
    'what something else also says is kept, with why. The message stays and is not learned again: `tempora redo` applies',
    'the same learning again. An observation (tempora observe) was not learned by a model and is not undone:',
    '`tempora forget --episode MESSAGE_ID` takes it back with what it added and closed. --json prints { episodeId, undo, canRedo }.',
  ],
  options: {},
  positionals: { min: 1, max: 1, name: 'MESSAGE_ID' },
  run(ctx) {
    const id = ctx.positionals[0]!;
    const { report, learning, content } = ctx.withMemory((memory) => {
      const report = memory.messages.undoLearning(id);
      return { report, learning: memory.messages.learning(id), content: memory.episodes.byId(id)?.content };
    });
    const canRedo = learning?.canRedo ?? false;
    if (ctx.json) return printJson(ctx.io, { episodeId: id, undo: report, canRedo });
    printLines(ctx.io, [
      `Undone what message ${id}${quoted(content)} taught: ${escapeControls(undoSummary(report))}`,
      canRedo ? `To apply it again: tempora redo ${id}` : 'It cannot be redone (it was learned before Tempora kept what each message taught, or its conversation is not remembered).',
    ]);
  },
};

export const redoCommand: CommandSpec = {
  name: 'redo',
  summary: 'apply again what an undone message taught (no model reads it)',
  synopsis: 'redo MESSAGE_ID',
  description: [
    'MESSAGE_ID: a message whose learning `tempora undo` took back. The same learning is applied again, by the rules,',
    'against the memory as it is now, in one write. --json prints the message\'s learning { state, added, closed, confirmed, … }.',
  ],
  options: {},
  positionals: { min: 1, max: 1, name: 'MESSAGE_ID' },
  run(ctx) {
    const id = ctx.positionals[0]!;
    const { learning, content } = ctx.withMemory((memory) => ({ learning: memory.messages.redoLearning(id), content: memory.episodes.byId(id)?.content }));
    if (ctx.json) return printJson(ctx.io, learning);
    printLines(ctx.io, [`Redone what message ${id}${quoted(content)} taught: ${escapeControls(learningSummary(learning, formatValidity))}`, `To take it back: tempora undo ${id}`]);
  },
};

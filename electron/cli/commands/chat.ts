/**
 * `tempora chat --model PATH`: a terminal chat on the same engine — answers stream token by token,
 * Ctrl-C stops an answer (twice at the prompt quits), and what you say is learned in the background.
 */
import { createInterface } from 'node:readline';
import type { CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { RefusedBeforeStoring } from '../errors';
import { learnedNotes } from '../chat-learned-notes';
import { escapeControls, formatValidity } from '../output';
import { learningSummary, undoSummary } from '../../../shared/learning-contract';

export const chatCommand: CommandSpec = {
  name: 'chat',
  summary: 'chat in the terminal with memory (streams answers; Ctrl-C stops one)',
  synopsis: 'chat --model PATH [--embedding-model PATH] [--conversation ID]',
  description: [
    'Commands: /new starts a conversation, /facts lists current facts, /undo takes back what your last message taught, /redo applies it again (no model call), /quit (or Ctrl-D) leaves.',
    'After each answer, once your message is learned, a line says what it changed ("Learned: … · Closed: … (from … to …)").',
  ],
  options: { ...MODEL_OPTIONS, conversation: { type: 'string', help: ['--conversation ID', 'continue this conversation'] } },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    await withEngine(ctx, { requireModel: true, startWorker: true }, async (engine) => {
      const memory = engine.memory;
      let conversation = ctx.string('conversation');
      if (conversation !== undefined && !memory.episodes.conversation(conversation)) throw new RefusedBeforeStoring(`--conversation: no conversation ${conversation}`);
      conversation ??= memory.conversations.create(`Terminal chat ${new Date().toISOString().slice(0, 16)}`).id;
      engine.worker.start();
      const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
      let turn: string | null = null;
      let turns = 0;
      rl.on('SIGINT', () => {
        if (turn) engine.stopTurn(turn);
        else rl.close();
      });
      engine.onEvent((event) => {
        if (event.name === 'chatToken' && event.payload.turnId === turn) ctx.io.stdout(event.payload.text);
      });
      // What each message taught, once learned (after its answer): written above the prompt.
      const notes = learnedNotes(engine, (line) => {
        ctx.io.stdout(turn === null ? `\n${line}` : line);
        if (turn === null) rl.prompt(true);
      });
      ctx.io.stdout(`Conversation ${conversation}. Ctrl-C stops an answer; /quit leaves.\n`);
      rl.prompt();
      for await (const line of rl) {
        const text = line.trim();
        if (text === '/quit') break;
        if (text === '/new') {
          conversation = memory.conversations.create('Terminal chat').id;
          ctx.io.stdout(`New conversation ${conversation}.\n`);
        } else if (text === '/undo') {
          const last = [...memory.episodes.ofConversation(conversation)].reverse().find((e) => e.role === 'user' && memory.messages.learning(e.id)?.canUndo);
          ctx.io.stdout(last ? `  Undone: ${escapeControls(undoSummary(memory.messages.undoLearning(last.id)))}\n` : '  Nothing to undo: no message of this conversation was learned.\n');
        } else if (text === '/redo') {
          // The same learning applied again, by the rules, without the model reading the message.
          const last = [...memory.episodes.ofConversation(conversation)].reverse().find((e) => e.role === 'user' && memory.messages.learning(e.id)?.canRedo);
          ctx.io.stdout(last ? `  Redone: ${escapeControls(learningSummary(memory.messages.redoLearning(last.id), formatValidity))}\n` : '  Nothing to redo: no message of this conversation was undone.\n');
        } else if (text === '/facts') {
          for (const f of memory.facts.list({ limit: 50 })) ctx.io.stdout(`  • ${f.fact} (${formatValidity(f)})\n`);
        } else if (text !== '') {
          turn = `cli-${process.pid}-${++turns}`;
          ctx.io.stdout('tempora> ');
          const result = await engine.chat(turn, { conversationId: conversation, content: text });
          turn = null;
          ctx.io.stdout(`${result.stopped ? ' [stopped]' : ''}\n`);
          if (result.factIds.length) ctx.io.stdout(`  (used ${result.factIds.length} remembered fact${result.factIds.length === 1 ? '' : 's'})\n`);
          notes.watch(result.userMessage.id);
        }
        rl.prompt();
      }
      rl.close();
      notes.dispose();
      const pending = memory.jobs.counts();
      const left = pending.pending + pending.running;
      if (left > 0) ctx.io.stdout(`${left} message(s) not learned yet: the next 'tempora chat', 'ingest' or the app will continue.\n`);
    });
  },
};

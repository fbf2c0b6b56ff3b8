/**
 * `tempora chat --model PATH`: a terminal chat on the same engine — answers stream token by token,
 * Ctrl-C stops an answer (twice at the prompt quits), and what you say is learned in the background.
 */
import { createInterface } from 'node:readline';
import type { CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { InputError } from '../errors';

export const chatCommand: CommandSpec = {
  name: 'chat',
  summary: 'chat in the terminal with memory (streams answers; Ctrl-C stops one)',
  synopsis: 'chat --model PATH [--embedding-model PATH] [--conversation ID]',
  description: ['Commands: /new starts a conversation, /facts lists current facts, /quit (or Ctrl-D) leaves.'],
  options: { ...MODEL_OPTIONS, conversation: { type: 'string', help: ['--conversation ID', 'continue this conversation'] } },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    await withEngine(ctx, { requireModel: true, startWorker: true }, async (engine) => {
      const memory = engine.memory;
      let conversation = ctx.string('conversation');
      if (conversation !== undefined && !memory.episodes.conversation(conversation)) throw new InputError(`--conversation: no conversation ${conversation}`);
      conversation ??= memory.createConversation(`Terminal chat ${new Date().toISOString().slice(0, 16)}`).id;
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
      ctx.io.stdout(`Conversation ${conversation}. Ctrl-C stops an answer; /quit leaves.\n`);
      rl.prompt();
      for await (const line of rl) {
        const text = line.trim();
        if (text === '/quit') break;
        if (text === '/new') {
          conversation = memory.createConversation('Terminal chat').id;
          ctx.io.stdout(`New conversation ${conversation}.\n`);
        } else if (text === '/facts') {
          for (const f of memory.listFacts({ limit: 50 })) ctx.io.stdout(`  • ${f.fact} (since ${f.valid_at.slice(0, 10)})\n`);
        } else if (text !== '') {
          turn = `cli-${process.pid}-${++turns}`;
          ctx.io.stdout('tempora> ');
          const result = await engine.chat(turn, { conversationId: conversation, content: text });
          turn = null;
          ctx.io.stdout(`${result.stopped ? ' [stopped]' : ''}\n`);
          if (result.factIds.length) ctx.io.stdout(`  (used ${result.factIds.length} remembered fact${result.factIds.length === 1 ? '' : 's'})\n`);
        }
        rl.prompt();
      }
      rl.close();
      const pending = memory.jobs.counts();
      const left = pending.pending + pending.running;
      if (left > 0) ctx.io.stdout(`${left} message(s) not learned yet: the next 'tempora chat', 'ingest' or the app will continue.\n`);
    });
  },
};

/**
 * What learning an imported history costs, with the scripted model: the benchmark conversation
 * (test/fixtures/bench-conversation.ts, 57 user messages) as a ChatGPT export — each message with
 * an assistant answer, split into conversations of ten — imported and learned through the backfill,
 * against the same messages sent as live chat. Prints model calls and prompt tokens per message and
 * whether both end with the same facts.
 *
 *   npx tsx test/bench/chat-import-cost.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { importChatExport } from '../../electron/engine/chat-import';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { BENCH_CONVERSATION, benchMessages, benchScript } from '../fixtures/bench-conversation';
import { gptConversation, type GptMessageSpec } from '../fixtures/chat-exports';
import { scriptedModel } from '../fixtures/scripted-model';

process.env.TEMPORA_TZ ??= 'Asia/Tokyo';

async function learn(memory: Memory) {
  const model = scriptedModel(benchScript());
  const worker = new IngestionWorker(memory, { model: () => model });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  const totals = memory.jobs.totals();
  const facts = memory
    .facts.list()
    .map((f) => `${f.subject} ${f.predicate} ${f.object} ${f.valid_at} ${f.invalid_at}`)
    .sort();
  return { totals, facts };
}

const dir = mkdtempSync(join(tmpdir(), 'tempora-import-cost-'));
try {
  const conversations = [];
  for (let start = 0; start < BENCH_CONVERSATION.length; start += 10) {
    const thread: GptMessageSpec[] = BENCH_CONVERSATION.slice(start, start + 10).flatMap((m, i) => {
      const seconds = Date.parse(m.time) / 1000;
      return [
        { id: `u${start + i}`, role: 'user' as const, text: m.content, time: seconds },
        { id: `a${start + i}`, role: 'assistant' as const, text: 'I see.', time: seconds + 5 },
      ];
    });
    conversations.unshift(gptConversation({ id: `c${start}`, title: `Part ${start / 10 + 1}`, thread })); // newest first, as ChatGPT writes them
  }
  const file = join(dir, 'conversations.json');
  writeFileSync(file, JSON.stringify(conversations));

  const imported = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
  const report = await importChatExport(imported, file, { timeZone: process.env.TEMPORA_TZ });
  const backfill = await learn(imported);

  const live = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });
  for (const m of benchMessages('live')) live.messages.append({ ...m, timeZone: process.env.TEMPORA_TZ });
  const chat = await learn(live);

  const per = (n: number, d: number) => Math.round((n / d) * 100) / 100;
  console.log(
    JSON.stringify(
      {
        importedMessages: report.messages,
        learnedMessages: backfill.totals.jobs,
        backfill: { callsPerLearnedMessage: per(backfill.totals.modelCalls, backfill.totals.jobs), callsPerImportedMessage: per(backfill.totals.modelCalls, report.messages), promptTokensPerLearnedMessage: Math.round(backfill.totals.promptTokens / backfill.totals.jobs) },
        liveChat: { callsPerMessage: per(chat.totals.modelCalls, chat.totals.jobs), promptTokensPerMessage: Math.round(chat.totals.promptTokens / chat.totals.jobs) },
        sameFacts: JSON.stringify(backfill.facts) === JSON.stringify(chat.facts),
        facts: backfill.facts.length,
      },
      null,
      2,
    ),
  );
  imported.close();
  live.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Memory's conversations: the list, a conversation's messages, creating and renaming one, whether
 * it is remembered (learn on or off, optionally forgetting what it taught), and deleting it.
 */
import type { ChatMessageRecord, ConversationSummary } from '../../shared/api-contract';
import type { ConversationRecord } from '../../shared/memory-schema';
import type { MemoryChange } from './memory-api';
import type { MemoryKernel } from './memory-kernel';
import { DEFAULT_TITLE, setTitleSource } from './store/conversation-settings';
import * as conversations from './store/conversations';
import { deleteConversation, setConversationLearning } from './temporal/conversation-writes';
import { flushFullText } from './text-search/fts-index';

export class MemoryConversations {
  constructor(private readonly kernel: MemoryKernel) {}

  list(): ConversationSummary[] {
    return conversations.listConversations(this.kernel.store);
  }

  /** Oldest first: all, or the latest `limit` — reaching back to a few before `from` when it is named. */
  messages(conversationId: string, window: conversations.MessageWindow = {}): ChatMessageRecord[] {
    return conversations.conversationMessages(this.kernel.store, conversationId, window);
  }

  /** Without a title it is "New conversation" until its first message names it. */
  create(title?: string): ConversationRecord {
    const { store } = this.kernel;
    return this.kernel.write(
      () => {
        const record = store.episodes.createConversation(title ?? DEFAULT_TITLE);
        if (title === undefined) setTitleSource(store, record.id, 'default');
        return record;
      },
      (c) => ({ kind: 'conversations', reason: 'conversation', conversationIds: [c.id] }),
    );
  }

  /** A title the user gives always wins: the first message no longer names it. */
  rename(conversationId: string, title: string): void {
    const { store } = this.kernel;
    this.kernel.write(
      () => (conversations.renameConversation(store, conversationId, title), setTitleSource(store, conversationId, 'given')),
      () => ({ kind: 'conversations', reason: 'conversation', conversationIds: [conversationId] }),
    );
  }

  /**
   * learn: false keeps the conversation's messages and learns none of them (its unfinished jobs
   * leave the queue); forget: also undo what was already learned from it, latest message first.
   */
  setLearning(conversationId: string, learn: boolean, options: { forget?: boolean } = {}): { learn: boolean; undoneMessages: number; forgottenFacts: number; forgottenVersions: string[] } {
    const { store } = this.kernel;
    flushFullText(store.db);
    const result = this.kernel.write(
      () => setConversationLearning(store, conversationId, learn, options.forget === true),
      (r): MemoryChange =>
        r.undoneMessages > 0
          ? { kind: 'forgotten', reason: 'learning undone', forgotten: { factIds: r.forgottenVersions, ...r.forgottenEntities, episodeIds: [] } }
          : { kind: 'conversations', reason: 'conversation', conversationIds: [conversationId] },
    );
    const { forgottenEntities: _entities, ...told } = result;
    return { learn, ...told };
  }

  /** Deletes a conversation. forget: also forget every fact learned only from it. */
  delete(conversationId: string, options: { forget: boolean }): { forgottenFacts: string[]; keptMessages: number } {
    const { store } = this.kernel;
    flushFullText(store.db);
    const result = this.kernel.write(
      () => deleteConversation(store, conversationId, options),
      (r) => ({ kind: 'forgotten', reason: 'conversation deleted', forgotten: r.forgotten }),
    );
    return { forgottenFacts: result.forgotten.factIds, keptMessages: result.keptMessages };
  }
}

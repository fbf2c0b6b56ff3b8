/** Chat: conversations on the left, the selected one's messages, the composer, streaming with Stop. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ChatMessageRecord } from '../../../shared/api-contract';
import { useApi, useApiEvent } from '../app/api-context';
import { useIngestion, useModelStatus } from '../app/model-status';
import { chatKeys, memoryKeys, modelKeys } from '../app/query-keys';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { Composer } from './Composer';
import { ConversationLearningSwitch } from './ConversationLearningSwitch';
import { ConversationList } from './ConversationList';
import { LearningIndicator } from './LearningIndicator';
import { MessageList } from './MessageList';
import { NoModelNotice } from './NoModelNotice';
import { useChatTurn, type MessageWindow } from './use-chat-turn';
import { useConversationDrawer } from './use-conversation-drawer';

/** Messages read at a time: the latest page, and a page more each time earlier ones are asked for. */
export const MESSAGE_PAGE = 200;

/** memoryChanged reasons after which the open conversation's messages are read again. */
const RELOADING_REASONS = new Set(['review', 'forget', 'conversation deleted', 'learning undone']);

export function ChatScreen({ conversationId, messageId = null }: { conversationId: string | null; messageId?: string | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const conversations = useQuery({ queryKey: memoryKeys.conversations, queryFn: () => api.listConversations({}) });
  const reloadConversations = () => queryClient.invalidateQueries({ queryKey: memoryKeys.conversations });
  const status = useModelStatus();
  const ingestion = useIngestion(status.data?.ingestion);
  const [error, setError] = useState<unknown>(null);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());
  const drawer = useConversationDrawer(conversationId);

  const selectedId = conversationId ?? conversations.data?.[0]?.id ?? null;
  const selected = conversations.data?.find((c) => c.id === selectedId) ?? null;
  // A long conversation is read from its end, a page at a time; a linked message reaches back to it.
  // Pages asked for count for the conversation (and link) they were asked in; another starts at one.
  const [pages, setPages] = useState<{ conversationId: string | null; messageId: string | null; count: number }>({ conversationId: null, messageId: null, count: 1 });
  const pagesOf = (id: string | null) => (pages.conversationId === id && pages.messageId === messageId ? pages.count : 1);
  const windowOf = (id: string): MessageWindow => ({
    limit: pagesOf(id) * MESSAGE_PAGE,
    ...(messageId && conversationId === id ? { from: messageId } : {}),
  });
  const shownWindow = windowOf(selectedId ?? '');
  // A conversation's messages change only through this window's turns (set when one finishes).
  const messages = useQuery({
    queryKey: [...chatKeys.messages(selectedId ?? ''), shownWindow],
    queryFn: () => api.conversationMessages({ id: selectedId ?? '', ...shownWindow }),
    enabled: selectedId !== null,
    // Earlier messages asked for: the ones shown stay until they come (another conversation's do not).
    placeholderData: (previous: ChatMessageRecord[] | undefined, query) => (query?.queryKey[2] === selectedId ? previous : undefined),
  });
  const notShown = selected && messages.data ? Math.max(0, selected.message_count - messages.data.length) : 0;

  // chatContext comes once the message is stored with its learning job: refresh the queue counts.
  useApiEvent('chatContext', () => void queryClient.invalidateQueries({ queryKey: modelKeys.status }));
  // Each message's learning marker follows the queue, and its learned facts come with messageLearned.
  const reloadMessages = () => {
    if (selectedId !== null) void queryClient.invalidateQueries({ queryKey: chatKeys.messages(selectedId) });
  };
  // (Only while one of them waits: a long import's queue must not reload the open conversation per job.)
  useApiEvent('ingestionProgress', () => {
    if (messages.data?.some((m) => m.learning?.state === 'pending' || m.learning?.state === 'learning')) reloadMessages();
  });
  useApiEvent('messageLearned', (payload) => {
    if (payload.conversationId === selectedId) reloadMessages();
  });
  // Messages forgotten (with a fact's sources, a conversation deleted elsewhere, MCP) and decisions
  // in review change what the open conversation shows too.
  useApiEvent('memoryChanged', (payload) => {
    if (RELOADING_REASONS.has(payload.reason)) reloadMessages();
  });
  const chat = useChatTurn((finishedId, fresh, stoppedId) => {
    if (stoppedId) setStoppedIds((s) => new Set([...s, stoppedId]));
    if (fresh) queryClient.setQueryData([...chatKeys.messages(finishedId), windowOf(finishedId)], fresh);
    void reloadConversations();
  }, windowOf);

  const { refetch } = conversations;
  useEffect(() => {
    // A conversation named in the address that no longer exists: fall back to the list. The list
    // may be older than the address (a link to one made elsewhere): it is asked again first.
    if (!conversationId || !conversations.data || conversations.data.some((c) => c.id === conversationId)) return;
    let live = true;
    void refetch().then((fresh) => {
      if (live && fresh.data && !fresh.data.some((c) => c.id === conversationId)) navigate({ screen: 'chat', conversationId: null }, { replace: true });
    });
    return () => {
      live = false;
    };
  }, [conversationId, conversations.data, refetch]);

  const create = async (title?: string): Promise<string | null> => {
    try {
      setError(null);
      const created = await api.createConversation(title ? { title } : {});
      // The list holds the new one before the address names it (else it would look deleted).
      await reloadConversations();
      navigate({ screen: 'chat', conversationId: created.id });
      return created.id;
    } catch (e) {
      setError(e);
      return null;
    }
  };

  const send = async (text: string) => {
    // Untitled: the memory names it after this first message (a rename by the user wins later).
    const id = selectedId ?? (await create());
    if (id) await chat.send(id, text);
  };

  const noModel = status.data !== undefined && status.data.chat === null;
  const streaming = chat.turn !== null;
  return (
    <div className="chat-screen">
      <ConversationList
        conversations={conversations.data ?? []}
        selectedId={selectedId}
        onCreate={() => void create()}
        onChanged={(deletedId) => {
          void reloadConversations();
          if (deletedId !== null && deletedId === selectedId) navigate({ screen: 'chat', conversationId: null });
        }}
        drawer={drawer.drawer}
      />
      {drawer.open && <div className="drawer-backdrop" aria-hidden="true" onMouseDown={(e) => e.preventDefault()} onClick={() => drawer.close()} />}
      <section className="chat-main" aria-label="Conversation">
        <header className="chat-header">
          <button type="button" className="conversations-toggle" {...drawer.toggle}>
            <span aria-hidden="true">☰</span> Conversations
          </button>
          <h1>{selected?.title ?? 'Chat'}</h1>
          {selected && (
            <ConversationLearningSwitch
              conversation={selected}
              learnedMessages={(messages.data ?? []).filter((m) => m.learning?.state === 'learned').length}
              earlierNotShown={notShown > 0}
              onChanged={() => {
                void reloadConversations();
                reloadMessages();
              }}
            />
          )}
          <LearningIndicator counts={ingestion.counts} />
        </header>
        {noModel && <NoModelNotice lastError={status.data?.lastError ?? null} />}
        <ErrorText error={conversations.error ?? messages.error ?? error ?? chat.error} />
        <MessageList
          messages={messages.data ?? []}
          turn={chat.turn?.conversationId === selectedId ? chat.turn : null}
          stoppedIds={stoppedIds}
          canRegenerate={!noModel && selectedId !== null}
          onRegenerate={() => selectedId && void chat.regenerate(selectedId)}
          highlightId={conversationId === selectedId ? messageId : null}
          onLearningChanged={reloadMessages}
          notShown={notShown}
          onShowEarlier={() => setPages({ conversationId: selectedId, messageId, count: pagesOf(selectedId) + 1 })}
        />
        <Composer
          conversationId={selectedId}
          disabled={noModel}
          disabledReason={noModel ? 'Load a chat model in Models to chat.' : null}
          streaming={streaming}
          onSend={(text) => void send(text)}
          onStop={chat.stop}
        />
      </section>
    </div>
  );
}

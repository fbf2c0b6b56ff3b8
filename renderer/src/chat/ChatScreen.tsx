/** Chat: conversations on the left, the selected one's messages, the composer, streaming with Stop. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../api/client';
import { useApi, useApiEvent } from '../app/api-context';
import { useIngestion, useModelStatus } from '../app/model-status';
import { chatKeys, memoryKeys, modelKeys } from '../app/query-keys';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { queryError } from '../common/query-error';
import { Composer } from './Composer';
import { ConversationList } from './ConversationList';
import { LearningIndicator } from './LearningIndicator';
import { MessageList } from './MessageList';
import { NoModelNotice } from './NoModelNotice';
import { useChatTurn } from './use-chat-turn';

export function ChatScreen({ conversationId }: { conversationId: string | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const conversations = useQuery({ queryKey: memoryKeys.conversations, queryFn: () => api.listConversations({}) });
  const reloadConversations = () => queryClient.invalidateQueries({ queryKey: memoryKeys.conversations });
  const status = useModelStatus();
  const ingestion = useIngestion(status.data?.ingestion);
  const [error, setError] = useState<string | null>(null);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());

  const selectedId = conversationId ?? conversations.data?.[0]?.id ?? null;
  const selected = conversations.data?.find((c) => c.id === selectedId) ?? null;
  // A conversation's messages change only through this window's turns (set when one finishes).
  const messages = useQuery({
    queryKey: chatKeys.messages(selectedId ?? ''),
    queryFn: () => api.conversationMessages({ id: selectedId ?? '' }),
    enabled: selectedId !== null,
  });

  // chatContext comes once the message is stored with its learning job: refresh the queue counts.
  useApiEvent('chatContext', () => void queryClient.invalidateQueries({ queryKey: modelKeys.status }));
  const chat = useChatTurn((finishedId, fresh, stoppedId) => {
    if (stoppedId) setStoppedIds((s) => new Set([...s, stoppedId]));
    if (fresh) queryClient.setQueryData(chatKeys.messages(finishedId), fresh);
    void reloadConversations();
  });

  useEffect(() => {
    // A conversation named in the address that no longer exists: fall back to the list.
    if (conversationId && conversations.data && !conversations.data.some((c) => c.id === conversationId)) {
      navigate({ screen: 'chat', conversationId: null }, { replace: true });
    }
  }, [conversationId, conversations.data]);

  const create = async (title?: string): Promise<string | null> => {
    try {
      setError(null);
      const created = await api.createConversation(title ? { title } : {});
      // The list holds the new one before the address names it (else it would look deleted).
      await reloadConversations();
      navigate({ screen: 'chat', conversationId: created.id });
      return created.id;
    } catch (e) {
      setError(errorMessage(e));
      return null;
    }
  };

  const send = async (text: string) => {
    const id = selectedId ?? (await create(text.length > 60 ? `${text.slice(0, 57)}…` : text));
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
      />
      <section className="chat-main" aria-label="Conversation">
        <header className="chat-header">
          <h1>{selected?.title ?? 'Chat'}</h1>
          <LearningIndicator counts={ingestion.counts} />
        </header>
        {noModel && <NoModelNotice lastError={status.data?.lastError ?? null} />}
        <ErrorText message={queryError(conversations.error) ?? queryError(messages.error) ?? error ?? chat.error} />
        <MessageList
          messages={messages.data ?? []}
          turn={chat.turn?.conversationId === selectedId ? chat.turn : null}
          stoppedIds={stoppedIds}
          canRegenerate={!noModel && selectedId !== null}
          onRegenerate={() => selectedId && void chat.regenerate(selectedId)}
        />
        <Composer
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

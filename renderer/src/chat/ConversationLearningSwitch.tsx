/**
 * "Don't learn from this conversation": its messages are kept and never learned (the chat still
 * answers from memory). Turning it on when something was learned already asks whether to forget that.
 */
import { useState } from 'react';
import type { ConversationSummary } from '../../../shared/api-contract';
import { useApi } from '../app/api-context';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ErrorText } from '../common/ErrorText';
import { plural } from '../common/format';

interface Props {
  conversation: ConversationSummary;
  /** Messages of it that were learned (and not undone). */
  learnedMessages: number;
  /** Earlier messages are not read yet: some of them may have been learned too. */
  earlierNotShown?: boolean;
  onChanged(): void;
}

export function ConversationLearningSwitch({ conversation, learnedMessages, earlierNotShown = false, onChanged }: Props) {
  const api = useApi();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);

  const set = async (learn: boolean, forget = false) => {
    setError(null);
    setNote(null);
    try {
      const result = await api.setConversationLearning({ id: conversation.id, learn, forget });
      if (forget) setNote(`Forgot what ${plural(result.undoneMessages, 'message')} taught (${plural(result.forgottenFacts, 'fact')}).`);
      onChanged();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div className="learn-switch">
      <label title="Its messages are kept and never learned; Tempora still answers from what it remembers">
        <input
          type="checkbox"
          checked={!conversation.learn}
          onChange={(e) => {
            if (!e.target.checked) void set(true);
            else if (learnedMessages > 0 || earlierNotShown) setAsking(true);
            else void set(false);
          }}
        />{' '}
        Don’t learn from this conversation
      </label>
      {note && (
        <span className="muted small" role="status">
          {note}
        </span>
      )}
      <ErrorText error={error} />
      <ConfirmDialog
        open={asking}
        title="Stop learning from this conversation?"
        choices={[
          { label: 'Stop, and forget what was learned', value: 'forget', danger: true },
          { label: 'Stop, keep what was learned', value: 'keep' },
        ]}
        onChoose={(choice) => {
          setAsking(false);
          if (choice !== null) void set(false, choice === 'forget');
        }}
      >
        <p>Its messages stay, and from now on none of them is learned.</p>
        <p>
          {earlierNotShown
            ? `Tempora learned from ${plural(learnedMessages, 'message')} of those shown here, and perhaps from earlier ones. `
            : `Tempora already learned from ${plural(learnedMessages, 'message')} here. `}
          <strong>Forget</strong> takes back what they taught (facts other messages also say stay);{' '}
          <strong>keep</strong> leaves it in your memory.
        </p>
      </ConfirmDialog>
    </div>
  );
}

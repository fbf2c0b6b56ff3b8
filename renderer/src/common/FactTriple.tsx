/**
 * "subject · predicate · object" beside a fact's sentence, the predicate in words ("lives in":
 * shared/predicate-words.ts). When the object is the sentence again (a
 * note kept whole), it is left out: the sentence is printed once.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { sayPredicate } from '../../../shared/predicate-words';
import { objectRepeatsSentence } from './format';

export function FactTriple({ fact }: { fact: Pick<FactRecord, 'subject' | 'predicate' | 'object' | 'fact'> }) {
  return (
    <>
      <span className="subject">{fact.subject}</span> · <span className="predicate">{sayPredicate(fact.predicate)}</span>
      {!objectRepeatsSentence(fact) && (
        <>
          {' · '}
          <span className="object">{fact.object}</span>
        </>
      )}
    </>
  );
}

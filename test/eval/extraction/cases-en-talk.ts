/**
 * English: confirmations of what the assistant said ("yes, that's right" — the fact comes from the
 * assistant's message and cites both), denials and replies that confirm nothing, and chit-chat with
 * nothing to learn (questions, thanks, hypotheticals, passing moods): there precision is all.
 */
import { assistant, fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'Europe/London';
const A = '2026-09-16T09:59:00+01:00';
const U = '2026-09-16T10:00:00+01:00';
const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;
const confirmed = { fromAssistant: true } as const;

function confirmation(id: string, said: string, reply: string, expect: ReturnType<typeof fact>[]): ScenarioInput {
  return { id: `en-confirm-${id}`, lang: 'en', category: 'confirmation', zone: ZONE, messages: [assistant(A, said), user(U, reply, expect)] };
}

function chat(id: string, lines: string[]): ScenarioInput {
  return { id: `en-chat-${id}`, lang: 'en', category: 'chit-chat', zone: ZONE, messages: lines.map((line, i) => user(`2026-09-16T${String(10 + i).padStart(2, '0')}:00:00+01:00`, line)) };
}

export const EN_CONFIRMATIONS: ScenarioInput[] = [
  confirmation('nurse', "So you work as a nurse at St Mary's Hospital, is that right?", "Yes, that's right.", [
    fact('me', 'works_at', "St Mary's Hospital", "I work at St Mary's Hospital.", { ...org, ...confirmed, objectAliases: ["St. Mary's Hospital", "St Mary's"] }),
    fact('me', 'job_title', 'nurse', "I'm a nurse.", confirmed),
  ]),
  confirmation('sister', 'You mentioned your sister Lisa lives in Toronto.', 'Yep, exactly.', [fact('Lisa', 'lives_in', 'Toronto', 'Lisa lives in Toronto.', { ...place, ...confirmed })]),
  confirmation('allergy', "Noted: you're allergic to peanuts. Should I keep that in mind for recipes?", 'Correct, please do.', [fact('me', 'allergic_to', 'peanuts', "I'm allergic to peanuts.", confirmed)]),
  confirmation('since', 'Have you been vegetarian since 2020?', 'Yes, since 2020.', [fact('me', 'diet', 'vegetarian', "I'm vegetarian.", { ...confirmed, since: '2020', valid: '2020', predicateAliases: ['is', 'eats', 'follows'] })]),
  confirmation('manager', 'So your new manager is Oliver, starting this month?', "That's correct.", [fact('me', 'manager', 'Oliver', 'My manager is Oliver.', { ...person, ...confirmed, since: 'this month', valid: '2026-09' })]),
  confirmation('plus', "You said you play the violin. Anything else you'd like me to remember?", 'Right, and I also play the cello.', [
    fact('me', 'plays', 'violin', 'I play the violin.', { ...confirmed, objectAliases: ['the violin'] }),
    fact('me', 'plays', 'cello', 'I play the cello.', { objectAliases: ['the cello'] }),
  ]),
  confirmation('denied', 'You live in Manchester, right?', 'No, I live in Leeds.', [fact('me', 'lives_in', 'Leeds', 'I live in Leeds.', place)]),
  confirmation('denied-2', 'Your cat is called Biscuit, if I remember correctly.', "No, that's my neighbour's cat. Mine is called Pepper.", [fact('me', 'has_pet', 'Pepper', 'My cat is called Pepper.', { objectType: 'thing', predicateAliases: ['cat', 'pet', 'owns', 'cat_name'] })]),
  confirmation('thanks-only', 'The train from London to Edinburgh takes about four and a half hours.', 'Thanks, good to know.', []),
  confirmation('unsure', 'Did you say your brother works at Google?', "Hmm, I'm not sure I said that.", []),
  confirmation('question', 'Your dentist appointment reminders are set for Mondays.', 'What time will they arrive?', []),
  confirmation('partial', 'So you moved to Bristol in June and work at Airbus there?', "Yes to Bristol in June, but I work at Rolls-Royce, not Airbus.", [
    fact('me', 'lives_in', 'Bristol', 'I live in Bristol.', { ...place, ...confirmed, since: 'June', valid: '2026-06' }),
    fact('me', 'works_at', 'Rolls-Royce', 'I work at Rolls-Royce.', org),
  ]),
];

export const EN_CHIT_CHAT: ScenarioInput[] = [
  chat('greetings', ['Good morning!', 'Thanks, that was really helpful.', 'lol', 'ok', 'Haha, that is hilarious.']),
  chat('questions', ["What's the weather like in Paris this weekend?", 'How do I convert Celsius to Fahrenheit?', 'Can you summarise this article for me?', 'Where do I live again?', 'Tell me a joke about penguins.']),
  chat('hypothetical', ["If I lived in Paris I'd eat croissants every day.", "I'm a bit tired today.", 'Maybe one day I will learn to surf, who knows.', 'Imagine having a dog that could talk!', 'Let me think about it and get back to you.']),
  chat('about-others', ['Some people say coffee is bad for you.', 'The Eiffel Tower is 330 metres tall, right?', 'Did you know octopuses have three hearts?', 'Hmm.', 'Never mind, forget I asked.']),
];

/**
 * English: changes (a later message closes an earlier fact) and corrections ("actually, it was …").
 * The user writes from New York; the first message of each scenario states the fact to change.
 */
import { fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'America/New_York';
/** Sunday 10 May 2026, 09:00 EDT: the earlier statement. */
const BEFORE = '2026-05-10T09:00:00-04:00';
/** Wednesday 16 September 2026, 10:00 EDT: the change. */
const NOW = '2026-09-16T10:00:00-04:00';
const S = { category: 'statement' } as const;

function change(id: string, first: string, old: ReturnType<typeof fact>, second: string, next: ReturnType<typeof fact>[], at?: string): ScenarioInput {
  return { id: `en-change-${id}`, lang: 'en', category: 'change', zone: ZONE, messages: [user(BEFORE, first, [old], S), user(NOW, second, next, { closes: [{ message: 0, fact: 0, ...(at ? { at } : {}) }] })] };
}

function correction(id: string, first: string, old: ReturnType<typeof fact>, second: string, next: ReturnType<typeof fact>[]): ScenarioInput {
  return { id: `en-correction-${id}`, lang: 'en', category: 'correction', zone: ZONE, messages: [user(BEFORE, first, [old], S), user(NOW, second, next, { closes: [{ message: 0, fact: 0 }] })] };
}

const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;

export const EN_CHANGES: ScenarioInput[] = [
  change('moved', 'I live in Boston.', fact('me', 'lives_in', 'Boston', 'I live in Boston.', place),
    'I moved to Chicago last week.', [fact('me', 'lives_in', 'Chicago', 'I live in Chicago.', { ...place, since: 'last week', valid: '2026-09-07' })], '2026-09-07'),
  change('new-job', 'I work at Acme Corp as an engineer.', fact('me', 'works_at', 'Acme Corp', 'I work at Acme Corp.', { ...org, objectAliases: ['Acme'] }),
    'Big news: I started a new job at Globex on Monday!', [fact('me', 'works_at', 'Globex', 'I work at Globex.', { ...org, since: 'Monday', valid: '2026-09-14' })], '2026-09-14'),
  change('manager', 'My manager is Tom Becker.', fact('me', 'manager', 'Tom Becker', 'My manager is Tom Becker.', { ...person, objectAliases: ['Tom'] }),
    'Tom left the company, so my manager is now Priya Shah.', [fact('me', 'manager', 'Priya Shah', 'My manager is Priya Shah.', { ...person, objectAliases: ['Priya'] })], 'said'),
  change('sister-city', 'My sister Anna lives in Denver.', fact('Anna', 'lives_in', 'Denver', 'Anna lives in Denver.', place),
    'Anna moved to Seattle in August.', [fact('Anna', 'lives_in', 'Seattle', 'Anna lives in Seattle.', { ...place, since: 'August', valid: '2026-08' })], '2026-08'),
  change('tennis-golf', 'I play tennis every weekend.', fact('me', 'plays', 'tennis', 'I play tennis.'),
    "I don't play tennis anymore; I switched to golf.", [
      fact('me', 'plays', 'tennis', 'I no longer play tennis.', { valid: 'before', invalid: 'said', until: 'now' }),
      fact('me', 'plays', 'golf', 'I play golf.'),
    ], 'said'),
  change('car', 'I drive a Honda Civic.', fact('me', 'drives', 'Honda Civic', 'I drive a Honda Civic.', { objectType: 'thing' }),
    'I sold the Civic and bought a Tesla Model 3 two weeks ago.', [fact('me', 'drives', 'Tesla Model 3', 'I drive a Tesla Model 3.', { objectType: 'thing', since: 'two weeks ago', valid: '2026-09-02', predicateAliases: ['owns'] })], '2026-09-02'),
  change('gym', 'I go to the Planet Fitness on Main Street.', fact('me', 'goes_to', 'Planet Fitness', 'I go to Planet Fitness.', org),
    'I cancelled my gym membership yesterday.', [fact('me', 'goes_to', 'Planet Fitness', 'I no longer go to Planet Fitness.', { ...org, valid: 'before', invalid: '2026-09-15', until: 'yesterday', objectAliases: ['gym'] })], '2026-09-15'),
  change('title', "I'm a junior analyst.", fact('me', 'job_title', 'junior analyst', "I'm a junior analyst."),
    'I got promoted to senior analyst this month.', [fact('me', 'job_title', 'senior analyst', "I'm a senior analyst.", { since: 'this month', valid: '2026-09' })], '2026-09'),
  change('partner', "My boyfriend's name is Jake.", fact('me', 'partner', 'Jake', 'My boyfriend is Jake.', person),
    "Jake and I broke up, and I'm dating Chris now.", [fact('me', 'partner', 'Chris', "I'm dating Chris.", person)], 'said'),
  change('vegetarian', 'I eat meat, mostly chicken.', fact('me', 'eats', 'meat', 'I eat meat.', { predicateAliases: ['diet'] }),
    'I stopped eating meat 3 days ago.', [fact('me', 'eats', 'meat', 'I no longer eat meat.', { valid: 'before', invalid: '2026-09-13', until: '3 days ago', predicateAliases: ['diet'] })], '2026-09-13'),
  change('school', 'My son Leo goes to Lincoln Elementary.', fact('Leo', 'studies_at', 'Lincoln Elementary', 'Leo goes to Lincoln Elementary.', org),
    'Leo started at Jefferson Middle School this month.', [fact('Leo', 'studies_at', 'Jefferson Middle School', 'Leo goes to Jefferson Middle School.', { ...org, since: 'this month', valid: '2026-09' })], '2026-09'),
  change('phone', 'My phone number is 555-0142.', fact('me', 'phone_number', '555-0142', 'My phone number is 555-0142.'),
    'I changed my number; it is 555-0199 now.', [fact('me', 'phone_number', '555-0199', 'My phone number is 555-0199.')], 'said'),
  change('team', 'I support the Red Sox.', fact('me', 'supports', 'Red Sox', 'I support the Red Sox.', { ...org, predicateAliases: ['fan_of', 'likes'] }),
    'After moving I gave up on the Red Sox and now I root for the Cubs.', [
      fact('me', 'supports', 'Red Sox', 'I no longer support the Red Sox.', { ...org, valid: 'before', invalid: 'said', until: 'now', predicateAliases: ['fan_of', 'likes'] }),
      fact('me', 'supports', 'Cubs', 'I support the Cubs.', { ...org, predicateAliases: ['fan_of', 'likes'] }),
    ], 'said'),
  change('dog-walker', 'Maria walks our dog on weekdays.', fact('Maria', 'walks', 'our dog', 'Maria walks our dog.', { objectAliases: ['dog'] }),
    'Maria stopped walking our dog on August 31.', [fact('Maria', 'walks', 'our dog', 'Maria no longer walks our dog.', { valid: 'before', invalid: '2026-08-31', until: 'August 31', objectAliases: ['dog'] })], '2026-08-31'),
];

export const EN_CORRECTIONS: ScenarioInput[] = [
  correction('manager-name', 'My manager is Tom.', fact('me', 'manager', 'Tom', 'My manager is Tom.', person),
    'Sorry, I typed that wrong: my manager is Tim, not Tom.', [fact('me', 'manager', 'Tim', 'My manager is Tim.', person)]),
  correction('city', 'My parents live in Portland, Oregon.', fact('my parents', 'lives_in', 'Portland', 'My parents live in Portland.', { ...place, subjectAliases: ['parents'] }),
    'Actually my parents live in Portland, Maine, not Oregon. Easy to mix up!', [fact('my parents', 'lives_in', 'Portland, Maine', 'My parents live in Portland, Maine.', { ...place, subjectAliases: ['parents'] })]),
  correction('start-date', 'I started at Acme on March 3.', fact('me', 'works_at', 'Acme', 'I work at Acme.', { ...org, since: 'March 3', valid: '2026-03-03' }),
    'Correction: I started at Acme on March 10, not March 3.', [fact('me', 'works_at', 'Acme', 'I work at Acme.', { ...org, since: 'March 10', valid: '2026-03-10' })]),
  correction('employer', 'My brother Ken works at Sony.', fact('Ken', 'works_at', 'Sony', 'Ken works at Sony.', org),
    'Wait, I was wrong before. Ken works at Panasonic, not Sony.', [fact('Ken', 'works_at', 'Panasonic', 'Ken works at Panasonic.', org)]),
  correction('birthday', "My wife's birthday is June 12.", fact('my wife', 'birthday', 'June 12', "My wife's birthday is June 12.", { subjectAliases: ['wife'] }),
    "Oops, my wife's birthday is actually June 21. I swapped the digits.", [fact('my wife', 'birthday', 'June 21', "My wife's birthday is June 21.", { subjectAliases: ['wife'] })]),
  correction('allergy', "I'm allergic to penicillin.", fact('me', 'allergic_to', 'penicillin', "I'm allergic to penicillin."),
    "I misspoke earlier — it's amoxicillin I'm allergic to, not penicillin.", [fact('me', 'allergic_to', 'amoxicillin', "I'm allergic to amoxicillin.")]),
  correction('year', 'I have lived in Austin since 2019.', fact('me', 'lives_in', 'Austin', 'I live in Austin.', { ...place, since: '2019', valid: '2019' }),
    'Correction: I have lived in Austin since 2018, not 2019.', [fact('me', 'lives_in', 'Austin', 'I live in Austin.', { ...place, since: '2018', valid: '2018' })]),
];

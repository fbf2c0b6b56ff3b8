/**
 * English: dates in every form — absolute, relative ("3 days ago", "last week"), at month and year
 * precision, ranges ("from … to …"), weekdays. Written on Wednesday 16 September 2026 in New York
 * (10:00 EDT), so "last week" is the week of Monday 7 September and "Friday" is the 11th.
 */
import { fact, user, type ScenarioInput } from './case-schema';

const ZONE = 'America/New_York';
const NOW = '2026-09-16T10:00:00-04:00';
const LATER = '2026-09-16T18:30:00-04:00';
const NEXT_DAY = '2026-09-17T08:15:00-04:00';
const place = { objectType: 'place' } as const;
const org = { objectType: 'organization' } as const;
const person = { objectType: 'person' } as const;

function dates(id: string, messages: ReturnType<typeof user>[]): ScenarioInput {
  return { id: `en-dates-${id}`, lang: 'en', category: 'dates', zone: ZONE, messages };
}

export const EN_DATES: ScenarioInput[] = [
  dates('relative', [
    user(NOW, 'I adopted a cat named Miso yesterday.', [fact('me', 'has_pet', 'Miso', 'I have a cat named Miso.', { objectType: 'thing', since: 'yesterday', valid: '2026-09-15', predicateAliases: ['owns', 'adopted'] })]),
    user(LATER, 'I started learning Spanish 3 days ago.', [fact('me', 'learning', 'Spanish', "I'm learning Spanish.", { since: '3 days ago', valid: '2026-09-13' })]),
    user(NEXT_DAY, 'Two weeks ago I joined a book club.', [fact('me', 'member_of', 'book club', "I'm a member of a book club.", { since: 'Two weeks ago', valid: '2026-09-03', objectAliases: ['a book club'] })]),
  ]),
  dates('weeks', [
    user(NOW, 'My daughter Emma started piano lessons last week.', [fact('Emma', 'takes', 'piano lessons', 'Emma takes piano lessons.', { since: 'last week', valid: '2026-09-07', predicateAliases: ['learning', 'plays', 'takes_lessons'], objectAliases: ['piano'] })]),
    user(LATER, 'A week ago I switched to a standing desk at work.', [fact('me', 'uses', 'standing desk', 'I use a standing desk at work.', { objectType: 'thing', since: 'A week ago', valid: '2026-09-09' })]),
    user(NEXT_DAY, 'I have been running every morning since last Monday.', [fact('me', 'runs', 'every morning', 'I run every morning.', { since: 'last Monday', valid: '2026-09-14', predicateAliases: ['habit', 'exercise'], objectAliases: ['running', 'mornings'] })]),
  ]),
  dates('weekdays', [
    user(NOW, 'On Friday I signed the lease for my new apartment on Elm Street.', [fact('me', 'lives_in', 'Elm Street', 'I rent an apartment on Elm Street.', { ...place, since: 'Friday', valid: '2026-09-11', predicateAliases: ['rents', 'leases'] })]),
    user(LATER, 'My grandmother moved into a care home on Tuesday.', [fact('my grandmother', 'lives_in', 'care home', 'My grandmother lives in a care home.', { ...place, since: 'Tuesday', valid: '2026-09-15', subjectAliases: ['grandmother'], objectAliases: ['a care home'] })]),
    user(NEXT_DAY, 'I start my new role as team lead next Monday.', [fact('me', 'job_title', 'team lead', "I'm a team lead.", { since: 'next Monday', valid: '2026-09-21' })]),
  ]),
  dates('months', [
    user(NOW, "I've been vegetarian since March.", [fact('me', 'diet', 'vegetarian', "I'm vegetarian.", { since: 'March', valid: '2026-03', predicateAliases: ['is', 'eats', 'follows'] })]),
    user(LATER, 'My brother Sam married Lily last month.', [fact('Sam', 'married_to', 'Lily', 'Sam is married to Lily.', { ...person, cardinality: 'one', since: 'last month', valid: '2026-08', subjectAliases: ['brother'] })]),
    user(NEXT_DAY, 'We have had a Netflix subscription since January 2025.', [fact('me', 'subscribes_to', 'Netflix', 'We have a Netflix subscription.', { ...org, since: 'January 2025', valid: '2025-01', predicateAliases: ['has', 'uses', 'subscription'] })]),
    user('2026-09-17T09:00:00-04:00', 'I start at the Berlin office next month.', [fact('me', 'works_in', 'Berlin office', 'I work at the Berlin office.', { ...place, since: 'next month', valid: '2026-10', predicateAliases: ['works_at', 'office', 'based_in'], objectAliases: ['Berlin'] })]),
  ]),
  dates('years', [
    user(NOW, "I've lived in this neighborhood since 2019.", [fact('me', 'lives_in', 'this neighborhood', 'I live in this neighborhood.', { ...place, since: '2019', valid: '2019', objectAliases: ['neighborhood'] })]),
    user(LATER, 'My parents retired last year.', [fact('my parents', 'status', 'retired', 'My parents are retired.', { since: 'last year', valid: '2025', subjectAliases: ['parents'], predicateAliases: ['is', 'retired', 'employment_status'] })]),
    user(NEXT_DAY, 'I got my driving license in 2018.', [fact('me', 'has', 'driving license', 'I have a driving license.', { objectType: 'thing', since: '2018', valid: '2018', predicateAliases: ['holds', 'owns'], objectAliases: ["driver's license", 'license'] })]),
  ]),
  dates('absolute', [
    user(NOW, 'I joined Initech on 2024-05-10.', [fact('me', 'works_at', 'Initech', 'I work at Initech.', { ...org, since: '2024-05-10', valid: '2024-05-10' })]),
    user(LATER, "My son Noah's birthday is July 4th.", [fact('Noah', 'birthday', 'July 4th', "Noah's birthday is July 4th.", { objectAliases: ['July 4', '07-04'] })]),
    user(NEXT_DAY, 'Since September 1 I commute by bike.', [fact('me', 'commute', 'bike', 'I commute by bike.', { since: 'September 1', valid: '2026-09-01', predicateAliases: ['commutes_by', 'commutes'], objectAliases: ['by bike', 'bicycle'] })]),
  ]),
  dates('ranges', [
    user(NOW, 'I lived in London from 2015 to 2018.', [fact('me', 'lives_in', 'London', 'I lived in London.', { ...place, since: '2015', until: '2018', valid: '2015', invalid: '2018' })]),
    user(LATER, 'From March 3 to March 10 my mother stayed with us.', [fact('my mother', 'stayed_with', 'us', 'My mother stayed with us.', { since: 'March 3', until: 'March 10', valid: '2026-03-03', invalid: '2026-03-10', subjectAliases: ['mother', 'mom'], objectAliases: ['me', 'our place'], predicateAliases: ['lived_with', 'stays_with', 'visited'] })]),
    user(NEXT_DAY, 'I worked at Starbucks from June 2020 until December 2021.', [fact('me', 'works_at', 'Starbucks', 'I worked at Starbucks.', { ...org, since: 'June 2020', until: 'December 2021', valid: '2020-06', invalid: '2021-12' })]),
  ]),
  dates('ranges-2', [
    user(NOW, 'Last summer I took a pottery class; it ran until August.', [fact('me', 'took', 'pottery class', 'I took a pottery class.', { since: 'Last summer', until: 'August', valid: '2026-06', invalid: '2026-08', predicateAliases: ['attended', 'takes', 'learning'], objectAliases: ['pottery'] })]),
    user(LATER, 'Our neighbor Dave will be in Japan for work from next week until next month.', [fact('Dave', 'located_in', 'Japan', 'Dave is in Japan for work.', { ...place, since: 'next week', until: 'next month', valid: '2026-09-21', invalid: '2026-10', predicateAliases: ['lives_in', 'staying_in', 'travels_to', 'visiting', 'in'] })]),
    user(NEXT_DAY, 'I played in a jazz band from 2010 to 2014.', [fact('me', 'member_of', 'jazz band', 'I played in a jazz band.', { ...org, since: '2010', until: '2014', valid: '2010', invalid: '2014', predicateAliases: ['played_in', 'plays_in'], objectAliases: ['a jazz band'] })]),
  ]),
  // An end still to come without a year: the next one, not the last ("until August" said in September is next August).
  dates('ends-to-come', [
    user(NOW, 'My sister Lena is staying with us until November.', [fact('Lena', 'stays_with', 'us', 'Lena is staying with us.', { until: 'until November', invalid: '2026-11', subjectAliases: ['my sister', 'sister'], objectAliases: ['me', 'our place'], predicateAliases: ['stayed_with', 'lives_with', 'visiting'] })]),
    user(LATER, "I'm renting a car until Friday.", [fact('me', 'rents', 'car', "I'm renting a car.", { objectType: 'thing', until: 'until Friday', invalid: '2026-09-18', predicateAliases: ['renting', 'has'], objectAliases: ['a car', 'rental car'] })]),
    user(NEXT_DAY, 'My gym membership runs until August.', [fact('me', 'member_of', 'gym', "I'm a member of the gym.", { ...org, until: 'until August', invalid: '2027-08', predicateAliases: ['goes_to', 'has'], objectAliases: ['the gym', 'gym membership'] })]),
  ]),
];

import { z } from 'zod';
import { nameStatedIn } from '../../models/index.ts';

/** One fact about the user, as kept in their `profile` namespace. */
export interface ProfileFact {
  key: string;
  value: string;
}

/** First-person statements of facts or preferences (Korean and English). */
const selfStatements = [
  /(?:내|제|나의|저의)\s*(?:이름|팀|직업|직무|회사|부서|역할|취미|생일|나이|전공)\s*(?:은|는)\s/u,
  /(?:우리|저희)\s*(?:팀|회사|부서)\s*(?:은|는)\s/u,
  /(?:^|\s)(?:나는|저는|난|전)\s[^?]{0,30}(?:좋아해|좋아합니다|좋아요|선호|싫어해|싫어합니다|일해|일합니다|근무)/u,
  /(?:영어|한국어|한글|존댓말|반말)로\s*(?:답|대답|말)/u,
  /\b(?:my name is|call me|i prefer|i like|i love|i hate|i work (?:at|on|in|for|as)|my (?:team|role|job|company|title) is|i am an? |i'm an? )/iu,
];
/** Questions state nothing: "내 이름이 뭐라고 했지?". */
const question = /[?？]\s*$|뭐|무엇|어떻게|\bwhat\b|\bwhich\b|\bwho\b|\bhow\b/iu;

/**
 * The cheap gate before any extraction: true when the message looks like the user stating a
 * fact about themselves. Only such turns may cost an extra model call.
 */
export function mayStateProfileFact(message: string): boolean {
  if (message.length > 500 || question.test(message)) return false;
  return selfStatements.some((pattern) => pattern.test(message));
}

const koreanTeam =
  /(?:우리|저희|내|제)\s*팀은\s*([\p{L}\p{N}-]+?)(?:이?야|입니다|이에요|예요|이다)?(?=[\s.!,~]|$)/u;
const englishTeam =
  /\bmy team is\s+(?:the\s+)?([\p{L}\p{N}][\p{L}\p{N} -]{0,40}?)(?:\s+team)?(?=[.!,]|$)/iu;
const englishLanguage =
  /\b(?:answers?|replies|reply|respond|responses?)\s+in\s+(english|korean)\b/iu;
const koreanLanguage = /(영어|한국어|한글)로\s*(?:답|대답|말)/u;

/**
 * The facts a message states, read by rules (no model call): the name, the team, the
 * language answers should be in; any other self-statement is kept whole as a note.
 */
export function ruleProfileFacts(message: string): ProfileFact[] {
  const facts: ProfileFact[] = [];
  const name = nameStatedIn(message);
  if (name) facts.push({ key: 'name', value: name });
  const team = message.match(koreanTeam)?.[1] ?? message.match(englishTeam)?.[1];
  if (team) facts.push({ key: 'team', value: team.trim() });
  const english = message.match(englishLanguage)?.[1];
  const korean = message.match(koreanLanguage)?.[1];
  if (english)
    facts.push({
      key: 'language',
      value: english.toLowerCase() === 'english' ? 'English' : 'Korean',
    });
  else if (korean) facts.push({ key: 'language', value: korean === '영어' ? 'English' : 'Korean' });
  if (facts.length === 0)
    facts.push({ key: noteKey(message), value: message.trim().slice(0, 200) });
  return facts;
}

/** The structured answer of the extraction call. */
export const profileFactsSchema = z.object({
  facts: z
    .array(z.object({ key: z.string(), value: z.string() }))
    .max(5)
    .describe('facts the user states about themselves; empty when there are none'),
});

/** The extraction call's instructions (one call, only on turns the gate lets through). */
export const profileExtractorPrompt = [
  '사용자가 자기 자신에 대해 말한 사실(이름, 팀, 역할, 선호하는 답변 언어나 방식 등)을 뽑으세요.',
  'Extract facts the user states about themselves. key: a short snake_case English word',
  '(name, team, role, language, answer_style, …); value: the fact, short, in the user’s words.',
  'Return {"facts": []} when the message states no such fact.',
].join('\n');

/** A model-proposed key made safe for the store: snake_case, at most 64 characters. */
export function profileKeyOf(key: string): string {
  const safe = key
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.:-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return safe === '' ? 'note' : safe;
}

/** A stable key for a whole statement kept as a note. */
function noteKey(message: string): string {
  let hash = 2166136261;
  for (const character of message.trim()) {
    hash = Math.imul(hash ^ (character.codePointAt(0) as number), 16777619) >>> 0;
  }
  return `note-${hash.toString(36)}`;
}

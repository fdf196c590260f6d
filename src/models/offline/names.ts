const koreanStatement =
  /(?:내|제)\s*이름은\s*([\p{L}\p{N}]+?)(?:이?야|입니다|이에요|예요|이라고|라고|이다)?(?=[\s.!?,~]|$)/u;
const englishStatement = /\b(?:my name is|call me)\s+([\p{L}][\p{L}'-]*)/iu;
const koreanQuestion = /(?:내|제)\s*이름(?:이|은|을)?\s*(?:뭐|무엇|뭔지|기억)/;
const englishQuestion = /what(?:'s| is) my name|do you (?:know|remember) my name/i;

/** The name a message introduces ("내 이름은 철수야", "my name is Alice"), if any. */
export function nameStatedIn(text: string): string | undefined {
  const korean = text.match(koreanStatement)?.[1];
  if (korean) return korean;
  return text.match(englishStatement)?.[1];
}

/** True when a message asks for the speaker's own name. */
export function asksForName(text: string): boolean {
  return koreanQuestion.test(text) || englishQuestion.test(text);
}

/** The most recent name stated in these texts (oldest first), if any. */
export function latestName(texts: string[]): string | undefined {
  for (let index = texts.length - 1; index >= 0; index -= 1) {
    const name = nameStatedIn(texts[index] as string);
    if (name) return name;
  }
  return undefined;
}

/**
 * The heading of the owner's long-term profile block in a system prompt (the chat agent
 * writes it, one `- key: value` line per fact; the offline model reads the name from it).
 */
export const longTermProfileHeading = '[사용자 프로필 (장기 기억)]';

/** The `name` line of the long-term profile block of a system prompt, if any. */
export function profileNameIn(system: string): string | undefined {
  const start = system.indexOf(longTermProfileHeading);
  if (start === -1) return undefined;
  const block = system.slice(start).split('\n\n')[0] as string;
  const line = block.match(/^- name: "?([^"\n]+?)"?\s*$/m);
  return line?.[1];
}

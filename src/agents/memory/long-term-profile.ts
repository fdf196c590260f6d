import type { MemoryItem, OwnerMemory } from '../../memory-store/index.ts';
import { countTokens, longTermProfileHeading } from '../../models/index.ts';
import type { AgentDependencies, AgentUsage } from '../types.ts';
import {
  mayStateProfileFact,
  type ProfileFact,
  profileExtractorPrompt,
  profileFactsSchema,
  profileKeyOf,
  ruleProfileFacts,
} from './profile-facts.ts';

/** The namespace of what users say about themselves. */
export const profileNamespace = 'profile';

/** The most the profile block may take of the system prompt (it counts in the input budget). */
const profileBlockTokens = 200;

/**
 * The owner's profile as a short system-prompt block: one `- key: value` line per fact,
 * newest first, cut at `profileBlockTokens`; empty when there is nothing.
 */
export function profileBlock(items: readonly MemoryItem[]): string {
  const lines: string[] = [];
  let tokens = countTokens(longTermProfileHeading);
  for (const item of items) {
    const value = typeof item.value === 'string' ? item.value : JSON.stringify(item.value);
    const line = `- ${item.key}: ${value.replace(/\s+/g, ' ').slice(0, 200)}`;
    tokens += countTokens(line);
    if (tokens > profileBlockTokens) break;
    lines.push(line);
  }
  return lines.length === 0 ? '' : [longTermProfileHeading, ...lines].join('\n');
}

/** The owner's profile block, read from the store. */
export async function readProfileBlock(memory: OwnerMemory): Promise<string> {
  return profileBlock(await memory.search({ prefix: profileNamespace, limit: 20 }));
}

/**
 * Keeps what a user message states about the user in their `profile`: nothing (and no call)
 * unless the cheap gate lets the message through; then rules with the offline model (no
 * call), or one structured-output call with a real one (rules again if it fails).
 * @returns the usage of the extra call (zero calls when none was made).
 */
export async function rememberProfileFacts(
  deps: AgentDependencies,
  memory: OwnerMemory,
  message: string,
  signal: AbortSignal,
): Promise<AgentUsage> {
  const usage: AgentUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  if (!mayStateProfileFact(message)) return usage;
  let facts: ProfileFact[] = [];
  if (deps.model.info.provider === 'offline') facts = ruleProfileFacts(message);
  else {
    try {
      const extracted = await deps.model.generateObject(profileFactsSchema, {
        system: profileExtractorPrompt,
        messages: [{ role: 'user', content: message }],
        temperature: 0,
        signal,
      });
      usage.llmCalls = extracted.attempts;
      usage.inputTokens = extracted.usage.inputTokens;
      usage.outputTokens = extracted.usage.outputTokens;
      facts = extracted.object.facts
        .filter((fact) => fact.value.trim() !== '')
        .map((fact) => ({ key: profileKeyOf(fact.key), value: fact.value.trim().slice(0, 500) }));
    } catch (error) {
      if (signal.aborted) throw error;
      usage.llmCalls = (error as { attempts?: number }).attempts ?? 1;
      facts = ruleProfileFacts(message);
    }
  }
  for (const fact of facts) await memory.put(profileNamespace, fact.key, fact.value);
  return usage;
}

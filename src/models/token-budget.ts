import { Buffer } from 'node:buffer';
import { InputTooLongError } from './errors/input-too-long-error.ts';
import { type EncodingApi, loadO200kTokenizer } from './o200k-tokenizer.ts';
import type { ChatMessage } from './types.ts';

let loadedTokenizer: EncodingApi | undefined;

/**
 * gpt-tokenizer, loaded on the first exact count (or by `loadTokenizer`): its o200k tables
 * hold about 20 MB of heap, and a turn whose texts fit their budgets by their byte length
 * alone (see `tokenBound`) never needs them.
 */
function tokenizer(): EncodingApi {
  loadedTokenizer ??= loadO200kTokenizer();
  return loadedTokenizer;
}

/**
 * Loads the tokenizer now. Loading takes the event loop for 0.3–1 s, so a server does it
 * before it listens: the first long conversation must not stall every request in flight
 * (and, with several instances, let another instance's later requests overtake them).
 */
export function loadTokenizer(): void {
  tokenizer();
}

/**
 * Text is counted as text: a special token's spelling (`<|endoftext|>`) typed in a message
 * is ordinary characters, not a reason to throw (gpt-tokenizer's default).
 */
const asText = { disallowedSpecial: new Set<string>() };

/**
 * At least as many tokens as the text has, without the tokenizer: its UTF-8 length, since
 * every token stands for at least one byte.
 */
export function tokenBound(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The text's exact token count when it may exceed `limit`, undefined when it cannot. */
export function countTokensOver(text: string, limit: number): number | undefined {
  if (tokenBound(text) <= limit) return undefined;
  const tokens = countTokens(text);
  return tokens > limit ? tokens : undefined;
}

/** Tokens every message costs besides its text (role and separators). */
const perMessageOverhead = 4;
/** A tool result of the current turn is never cut below this many tokens. */
const toolResultFloor = 200;

/**
 * Longest run without white space handed to the tokenizer at once. BPE is quadratic on
 * long unbroken runs (100 000 × "x" takes seconds), so such runs — a pasted blob, a
 * hostile message — are counted in slices. Ordinary text is never sliced.
 */
const maxUnbrokenRun = 200;
const longRun = new RegExp(`\\S{${maxUnbrokenRun}}`);
const runSlices = new RegExp(`(\\S{${maxUnbrokenRun}})`);

/** The text in pieces the tokenizer handles in linear time. */
function safePieces(text: string): string[] {
  return longRun.test(text) ? text.split(runSlices).filter((piece) => piece.length > 0) : [text];
}

/**
 * Counts of recent texts: system prompts, reference blocks, greetings and answers come back
 * on every call, and looking one up costs a hash, not a BPE pass. Bounded in entries and
 * in the length of what it keeps (at most ~4 M characters).
 */
const recentCounts = new Map<string, number>();
const recentCountsLimit = 256;
const recentTextMax = 16_384;

/** Tokens in a text (o200k encoding: close to current OpenAI models, a fair estimate for others). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  const remember = text.length <= recentTextMax;
  if (remember) {
    const known = recentCounts.get(text);
    if (known !== undefined) return known;
  }
  let total = 0;
  for (const piece of safePieces(text)) total += tokenizer().countTokens(piece, asText);
  if (remember) {
    if (recentCounts.size >= recentCountsLimit) {
      recentCounts.delete(recentCounts.keys().next().value as string);
    }
    recentCounts.set(text, total);
  }
  return total;
}

/** The first `maxTokens` tokens of a text (the whole text when it is shorter). */
export function truncateToTokens(text: string, maxTokens: number): string {
  let kept = '';
  let used = 0;
  if (tokenBound(text) <= maxTokens) return text;
  const { decode, encode } = tokenizer();
  for (const piece of safePieces(text)) {
    const tokens = encode(piece, asText);
    if (used + tokens.length > maxTokens) return kept + decode(tokens.slice(0, maxTokens - used));
    kept += piece;
    used += tokens.length;
  }
  return text;
}

/** A message's cost in a prompt, its text and tool calls measured by `measure`, remembered in `cache`. */
function messageCost(
  message: ChatMessage,
  measure: (text: string) => number,
  cache: WeakMap<ChatMessage, number>,
): number {
  const cached = cache.get(message);
  if (cached !== undefined) return cached;
  let total = perMessageOverhead + measure(message.content);
  for (const call of message.toolCalls ?? []) {
    total += measure(call.name) + measure(JSON.stringify(call.args ?? {}));
  }
  cache.set(message, total);
  return total;
}

/** Tokens a message costs in a prompt, tool calls included. */
export function messageTokens(message: ChatMessage): number {
  return messageCost(message, countTokens, counted);
}

/** At least the tokens a message costs (`tokenBound` of its parts), without the tokenizer. */
function messageTokenBound(message: ChatMessage): number {
  return messageCost(message, tokenBound, bounded);
}

const bounded = new WeakMap<ChatMessage, number>();

/**
 * Token counts of messages already seen. State messages are not changed in place, so a
 * conversation's history is counted once, not on every model call.
 */
const counted = new WeakMap<ChatMessage, number>();

/** What fitting a conversation into the input budget produced. */
export interface BudgetedPrompt {
  messages: ChatMessage[];
  /** Messages dropped from the front of the history. */
  dropped: number;
  /** Estimated input tokens, system prompt included (counted when first read). */
  readonly tokenCount: number;
}

/**
 * Fits a conversation into `maxInputTokens`: drops the oldest history first, never
 * the system prompt or the current turn (the last user message and what follows it),
 * and never a tool call without its results. Tool results of the current turn are
 * shortened, largest first, when the turn alone is too long; a user message that
 * cannot fit even alone is an InputTooLongError.
 */
export function fitToBudget(options: {
  system?: string;
  messages: ChatMessage[];
  maxInputTokens: number;
}): BudgetedPrompt {
  const { maxInputTokens } = options;
  // A message a guardrail blocked is never sent, so it neither counts nor is described.
  const messages = options.messages.some((message) => message.blocked === true)
    ? options.messages.filter((message) => message.blocked !== true)
    : options.messages;
  // The system prompt's cost, by a bound or by the exact count.
  const systemCost = (measure: (text: string) => number) =>
    options.system ? measure(options.system) + perMessageOverhead : 0;
  const systemBound = systemCost(tokenBound);
  if (systemBound + sum(messages.map(messageTokenBound)) <= maxInputTokens) {
    // Everything fits even counted by bytes: nothing is dropped or cut (as the exact count
    // below would decide), and the exact count is made only if someone reads it.
    let tokenCount: number | undefined;
    return {
      messages: [...messages],
      dropped: 0,
      get tokenCount() {
        tokenCount ??= systemCost(countTokens) + sum(messages.map(messageTokens));
        return tokenCount;
      },
    };
  }
  const systemTokens = systemCost(countTokens);
  const currentIndex = lastIndexOf(messages, (message) => message.role === 'user');
  const turnStart = currentIndex === -1 ? 0 : currentIndex;
  const currentTurn = messages.slice(turnStart);
  const current = messages[turnStart];
  if (current !== undefined && current.role === 'user') {
    const alone = systemTokens + messageTokens(current);
    if (alone > maxInputTokens)
      throw new InputTooLongError({ tokenCount: alone, limit: maxInputTokens });
  }
  const turn = shortenToolResults(currentTurn, maxInputTokens - systemTokens);
  let total = systemTokens + sum(turn.map(messageTokens));
  if (total > maxInputTokens)
    throw new InputTooLongError({ tokenCount: total, limit: maxInputTokens });

  const kept: ChatMessage[][] = [];
  const units = groupUnits(messages.slice(0, turnStart));
  let keptCount = 0;
  for (let index = units.length - 1; index >= 0; index -= 1) {
    const unit = units[index] as ChatMessage[];
    const cost = sum(unit.map(messageTokens));
    if (total + cost > maxInputTokens) break;
    total += cost;
    keptCount += unit.length;
    kept.unshift(unit);
  }
  return { messages: [...kept.flat(), ...turn], dropped: turnStart - keptCount, tokenCount: total };
}

/** Groups history into units that are kept or dropped whole: a tool call travels with its results. */
function groupUnits(history: ChatMessage[]): ChatMessage[][] {
  const units: ChatMessage[][] = [];
  for (const message of history) {
    const previous = units.at(-1);
    const answersPrevious =
      message.role === 'tool' &&
      previous !== undefined &&
      previous[0]?.toolCalls?.some((call) => call.id === message.toolCallId);
    if (answersPrevious) previous.push(message);
    else units.push([message]);
  }
  return units;
}

function shortenToolResults(turn: ChatMessage[], budget: number): ChatMessage[] {
  let total = sum(turn.map(messageTokens));
  if (total <= budget) return turn;
  const result = turn.slice();
  const order = result
    .map((message, index) => ({
      index,
      tokens: message.role === 'tool' ? messageTokens(message) : 0,
    }))
    .filter((entry) => entry.tokens > toolResultFloor)
    .sort((a, b) => b.tokens - a.tokens);
  for (const { index, tokens } of order) {
    if (total <= budget) break;
    const target = Math.max(toolResultFloor, tokens - (total - budget));
    const message = result[index] as ChatMessage;
    const content = `${truncateToTokens(message.content, target - perMessageOverhead - 8)} …[cut]`;
    result[index] = { ...message, content };
    total += messageTokens(result[index] as ChatMessage) - tokens;
  }
  return result;
}

function lastIndexOf<T>(list: T[], predicate: (item: T) => boolean): number {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    if (predicate(list[index] as T)) return index;
  }
  return -1;
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

import type { ClosingStep } from '../../graph/index.ts';
import {
  type GraphGuardrails,
  type GuardrailRecord,
  type OutputGuard,
  type PlaceholderVault,
  refusalOf,
  type StageOutcome,
  type StageRun,
  type VaultEntry,
} from '../../guardrails/index.ts';
import type { ChatMessage } from '../../models/index.ts';
import { isKorean } from '../prompts.ts';

/** Where a run's guardrail actions are reported besides its events (metrics, logs). */
export type GuardrailObserver = (record: GuardrailRecord, sessionId: string) => void;

/** What a run's guard is made of. */
export interface RunGuardFields {
  guardrails: GraphGuardrails;
  vault: PlaceholderVault;
  sessionId: string;
  graph: string;
  signal: AbortSignal;
  emit: (name: string, data: unknown) => void;
  observe?: GuardrailObserver | undefined;
  /** Stores the values the vault numbered (the session's vault in the state store). */
  persist: (sessionId: string, entries: VaultEntry[]) => Promise<void>;
}

/**
 * The guardrails of one run of a chat graph: each stage's checks on the session's vault,
 * what acted (in order, each one a `guardrail` event and reported to the observer), the
 * block that ended the turn or the answer, and the `guardrail` step the run records at its end.
 */
export class RunGuard {
  /** What acted during the run, in order. */
  readonly records: GuardrailRecord[] = [];
  /** The block that ended the turn (input) or replaced the answer (output). */
  blocked: GuardrailRecord | undefined;
  readonly #fields: RunGuardFields;
  readonly #run: StageRun;
  #stepped = 0;
  #answersChecked = 0;

  constructor(fields: RunGuardFields) {
    this.#fields = fields;
    this.#run = {
      sessionId: fields.sessionId,
      graph: fields.graph,
      signal: fields.signal,
      vault: fields.vault,
    };
  }

  /** The graph whose guardrails these are. */
  get graph(): string {
    return this.#fields.graph;
  }

  /** Whether the graph has input guardrails (the session's title waits for them). */
  get checksInput(): boolean {
    return this.#fields.guardrails.names.input.length > 0;
  }

  /** Whether the graph has any guardrail at all (none: nothing to check or record). */
  get empty(): boolean {
    return this.#fields.guardrails.empty;
  }

  /** Checks the user's message: the text to use (placeholders in), and the block if any. */
  async input(text: string): Promise<StageOutcome> {
    const outcome = await this.#fields.guardrails.checkInput(text, this.#run);
    this.#note(outcome.records);
    if (outcome.blocked) this.blocked = outcome.blocked;
    await this.save();
    return outcome;
  }

  /** The guard an answer's text streams through; undefined when the graph has no output guardrails. */
  output(): OutputGuard | undefined {
    return this.#fields.guardrails.openOutput(this.#run);
  }

  /** Notes what an output guard did once its answer ended (a block replaces the answer). */
  answered(outcome: StageOutcome): void {
    this.#answersChecked += 1;
    this.#note(outcome.records);
    if (outcome.blocked && this.blocked === undefined) this.blocked = outcome.blocked;
  }

  /** Checks a tool call's arguments: the block if any, and the arguments the tool receives. */
  async toolArgs(tool: string, args: Record<string, unknown>) {
    const outcome = await this.#fields.guardrails.checkToolArgs({ tool, args }, this.#run);
    this.#note(outcome.records);
    return outcome;
  }

  /** Checks a tool's result before the model sees it. */
  async toolResult(tool: string, args: Record<string, unknown>, result: string) {
    const outcome = await this.#fields.guardrails.checkToolResult(
      { tool, args, result },
      this.#run,
    );
    this.#note(outcome.records);
    await this.save();
    return outcome;
  }

  /** Stores what the vault numbered since the last save. */
  async save(): Promise<void> {
    const added = this.#fields.vault.takeAdded();
    if (added.length > 0) await this.#fields.persist(this.#fields.sessionId, added);
  }

  /**
   * The `guardrail` step a run records at its end, listing what acted since the last one
   * (a run inside the evaluation loop may be one of several); undefined when nothing did.
   */
  async closingStep(
    update: Record<string, unknown> = {},
    values?: Record<string, unknown>,
  ): Promise<ClosingStep | undefined> {
    const restated = await this.#checkUnguardedAnswer(values);
    const acted = this.records.slice(this.#stepped);
    if (acted.length === 0 && Object.keys(update).length === 0) return undefined;
    this.#stepped = this.records.length;
    const marked = this.blocked?.stage === 'output' ? markedTurn(values, restated) : restated;
    return {
      node: 'guardrail',
      update: { ...(marked.length > 0 ? { messages: marked } : {}), ...update, guardrails: acted },
    };
  }

  /**
   * A graph of the config file may answer without the output stage (a node calling
   * `kit.model.call` itself): when no answer of the run went through it, the run's last
   * answer is checked at its end, and restated as the stage left it (a refusal on a block).
   */
  async #checkUnguardedAnswer(values?: Record<string, unknown>): Promise<ChatMessage[]> {
    if (this.#answersChecked > 0 || values === undefined) return [];
    const messages = (values.messages ?? []) as ChatMessage[];
    const index = messages.findLastIndex((message) => message.role === 'assistant');
    const question = messages.findLastIndex((message) => message.role === 'user');
    const answer = messages[index];
    if (answer === undefined || index < question || answer.content === '' || answer.blocked) {
      return [];
    }
    const output = this.output();
    if (output === undefined || answer.id === undefined) return [];
    output.push(answer.content);
    const ended = await output.end();
    this.answered(ended);
    if (ended.blocked !== undefined) {
      const korean = isKorean(messages[question]?.content ?? '');
      return [{ ...answer, content: refusalOf(ended.blocked, korean), toolCalls: [] }];
    }
    return ended.text === answer.content ? [] : [{ ...answer, content: ended.text }];
  }

  #note(records: GuardrailRecord[]): void {
    for (const record of records) {
      this.records.push(record);
      this.#fields.emit('guardrail', record);
      this.#fields.observe?.(record, this.#fields.sessionId);
    }
  }
}

/**
 * The turn an output block ended, restated under its ids with `blocked: true` (its user
 * message and the refusal that answered it), so neither goes to a model again and both
 * stay marked after a reload.
 */
function markedTurn(
  values: Record<string, unknown> | undefined,
  restated: ChatMessage[],
): ChatMessage[] {
  const messages = (values?.messages ?? []) as ChatMessage[];
  const answer = messages.findLastIndex((message) => message.role === 'assistant');
  const question = messages.findLastIndex((message) => message.role === 'user');
  return [messages[question], restated[0] ?? messages[answer]]
    .filter((message): message is ChatMessage => message?.id !== undefined)
    .map((message) => ({ ...message, blocked: true }));
}

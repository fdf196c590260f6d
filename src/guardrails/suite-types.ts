import type { PlaceholderVault } from './placeholder-vault.ts';
import type { GuardrailRecord } from './types.ts';

/** The run a stage checks for: its session, graph, cancellation and the session's vault. */
export interface StageRun {
  sessionId: string;
  graph: string;
  signal: AbortSignal;
  vault: PlaceholderVault;
}

/** What a stage left: the text to go on with (or to store, when blocked), what acted, and the block if any. */
export interface StageOutcome {
  /**
   * The checked text. On a block it is what may be stored: every match of a `block` or `redact`
   * pii or deny detector replaced by its placeholder.
   */
  text: string;
  records: GuardrailRecord[];
  blocked?: GuardrailRecord;
}

/** What the tools stage decided about a call's arguments. */
export interface ToolArgsOutcome {
  records: GuardrailRecord[];
  blocked?: GuardrailRecord;
  /** What the tool receives: restored for the tools that may have real values, else as the model wrote them. */
  args: Record<string, unknown>;
}

/** An answer's output stage while it streams. */
export interface OutputGuard {
  /** A streamed chunk in; the text that may be sent now (`''` allowed). */
  push(chunk: string): string;
  /**
   * The answer ended: the held rest to send, the whole checked answer (`text`: everything sent
   * plus `rest`) and what acted. Custom output checks run here; a graph with one holds the whole
   * answer until then.
   */
  end(): Promise<StageOutcome & { rest: string }>;
  /** Set once a `block` matched; from then on `push` returns `''`. */
  readonly blocked: GuardrailRecord | undefined;
}

/** One graph's guardrails, stage by stage. */
export interface GraphGuardrails {
  /** The guardrails' names per stage, in the order they run. */
  readonly names: { input: string[]; output: string[]; tools: string[] };
  /** No guardrail at any stage. */
  readonly empty: boolean;
  /** Checks a user's message before the turn does anything else. */
  checkInput(text: string, run: StageRun): Promise<StageOutcome>;
  /** The output stage of one answer, or undefined when the graph has no output guardrails. */
  openOutput(run: StageRun): OutputGuard | undefined;
  /**
   * Checks a tool call's arguments before it runs or is put up for approval. The guardrails see
   * them with the session's placeholders restored.
   */
  checkToolArgs(
    subject: { tool: string; args: Record<string, unknown> },
    run: StageRun,
  ): Promise<ToolArgsOutcome>;
  /** Checks a tool's result before the model sees it (restorable pii numbered and vaulted). */
  checkToolResult(
    subject: { tool: string; args: Record<string, unknown>; result: string },
    run: StageRun,
  ): Promise<StageOutcome>;
}

/** Every chat graph's guardrails, compiled from the config and the environment. */
export interface GuardrailSuite {
  /** A graph's guardrails; a graph the config does not name gets the global lists. */
  forGraph(graph: string): GraphGuardrails;
  /** Every chat graph's guardrail names per stage, in run order (`GET /api/agent/status`). */
  describe(): Record<string, { input: string[]; output: string[]; tools: string[] }>;
}

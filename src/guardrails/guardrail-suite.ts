import { checkToolArgs } from './check-tool-args.ts';
import type { CompiledGuardrail } from './compiled-guardrail.ts';
import { StreamingOutputGuard } from './output-guard.ts';
import { runTextStage } from './run-text-stage.ts';
import type {
  GraphGuardrails,
  GuardrailSuite,
  OutputGuard,
  StageOutcome,
  StageRun,
  ToolArgsOutcome,
} from './suite-types.ts';

/** A graph's compiled lists, stage by stage. */
export interface StageLists {
  input: readonly CompiledGuardrail[];
  output: readonly CompiledGuardrail[];
  tools: readonly CompiledGuardrail[];
}

/** The lists of no guardrail at all. */
export const noGuardrails: StageLists = { input: [], output: [], tools: [] };

/** One graph's guardrails, run stage by stage. */
export class StageGuardrails implements GraphGuardrails {
  readonly names: { input: string[]; output: string[]; tools: string[] };
  readonly empty: boolean;
  #lists: StageLists;
  /** Tools that get restored arguments: every `pii` of the graph's lists names its own. */
  #restoreTools: ReadonlySet<string>;

  /** A graph's guardrails from its compiled lists. */
  constructor(lists: StageLists) {
    this.#lists = lists;
    const namesOf = (list: readonly CompiledGuardrail[]) => list.map((guardrail) => guardrail.name);
    this.names = {
      input: namesOf(lists.input),
      output: namesOf(lists.output),
      tools: namesOf(lists.tools),
    };
    this.empty = lists.input.length + lists.output.length + lists.tools.length === 0;
    const tools = new Set<string>();
    for (const guardrail of [...lists.input, ...lists.output, ...lists.tools]) {
      if (guardrail.type === 'pii')
        for (const tool of guardrail.settings.restoreTools) tools.add(tool);
    }
    this.#restoreTools = tools;
  }

  /** Checks a user's message. */
  checkInput(text: string, run: StageRun): Promise<StageOutcome> {
    if (this.#lists.input.length === 0) return Promise.resolve({ text, records: [] });
    return runTextStage(this.#lists.input, text, { stage: 'input', run, numbered: true });
  }

  /** Opens one answer's output stage. */
  openOutput(run: StageRun): OutputGuard | undefined {
    return this.#lists.output.length === 0
      ? undefined
      : new StreamingOutputGuard(this.#lists.output, run);
  }

  /** Checks a tool call's arguments. */
  async checkToolArgs(
    subject: { tool: string; args: Record<string, unknown> },
    run: StageRun,
  ): Promise<ToolArgsOutcome> {
    if (this.#lists.tools.length === 0) {
      const args = this.#restoreTools.has(subject.tool)
        ? run.vault.restoreDeep(subject.args)
        : subject.args;
      return { records: [], args };
    }
    return checkToolArgs(this.#lists.tools, subject, run, this.#restoreTools);
  }

  /** Checks a tool's result. */
  checkToolResult(
    subject: { tool: string; args: Record<string, unknown>; result: string },
    run: StageRun,
  ): Promise<StageOutcome> {
    const results = this.#lists.tools.filter((guardrail) => guardrail.type !== 'toolArgs');
    if (results.length === 0) return Promise.resolve({ text: subject.result, records: [] });
    return runTextStage(results, subject.result, {
      stage: 'tools',
      run,
      numbered: true,
      tool: { tool: subject.tool, args: run.vault.restoreDeep(subject.args) },
    });
  }
}

/** Every chat graph's guardrails: per-graph lists where the config sets them, else the global ones. */
export class CompiledSuite implements GuardrailSuite {
  #global: StageGuardrails;
  #graphs: ReadonlyMap<string, StageGuardrails>;
  #chatGraphs: readonly string[];

  /** A suite from the global lists and each chat graph's own. */
  constructor(
    global: StageLists,
    graphs: ReadonlyMap<string, StageLists>,
    chatGraphs: readonly string[],
  ) {
    this.#global = new StageGuardrails(global);
    this.#graphs = new Map([...graphs].map(([name, lists]) => [name, new StageGuardrails(lists)]));
    this.#chatGraphs = chatGraphs;
  }

  /** A graph's guardrails. */
  forGraph(graph: string): GraphGuardrails {
    return this.#graphs.get(graph) ?? this.#global;
  }

  /** Every chat graph's names per stage. */
  describe(): Record<string, { input: string[]; output: string[]; tools: string[] }> {
    const described: Record<string, { input: string[]; output: string[]; tools: string[] }> = {};
    for (const graph of this.#chatGraphs) {
      const { input, output, tools } = this.forGraph(graph).names;
      described[graph] = { input: [...input], output: [...output], tools: [...tools] };
    }
    return described;
  }
}

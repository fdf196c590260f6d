import { builtinStages, compileEntry, defaultableBuiltins } from './compile-entry.ts';
import { isRecord } from './compile-pii.ts';
import type { CompiledGuardrail } from './compiled-guardrail.ts';
import { CompiledSuite, noGuardrails, type StageLists } from './guardrail-suite.ts';
import type { GuardrailSuite } from './suite-types.ts';
import type { GuardrailStage, GuardrailsConfig } from './types.ts';

const stages: readonly GuardrailStage[] = ['input', 'output', 'tools'];

/** What a config's guardrails are compiled against. */
export interface CompileGuardrailsOptions {
  /** Every chat graph's name: the built-in agents and the config's chat graphs. */
  chatGraphs: string[];
  /** `YEOUL_GUARDRAILS` as read (`off`, or built-in names); undefined when unset. */
  environment?: string[] | 'off';
  /** The config file's own tools: where `pii` restores real values unless it says otherwise. */
  configTools: string[];
}

/** One stage's list, or every problem with it (`guardrails.input[2]: …`); undefined when not given. */
function compileList(
  value: unknown,
  stage: GuardrailStage,
  path: string,
  configTools: readonly string[],
  problems: string[],
): CompiledGuardrail[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push(`${path}: a list of guardrails`);
    return undefined;
  }
  const list: CompiledGuardrail[] = [];
  const seen = new Map<string, number>();
  value.forEach((entry, index) => {
    const compiled = compileEntry(entry, stage, `${path}[${index}]`, configTools);
    problems.push(...compiled.problems);
    if (compiled.guardrail === undefined) return;
    const first = seen.get(compiled.guardrail.name);
    if (first !== undefined) {
      problems.push(
        `${path}[${index}]: the name "${compiled.guardrail.name}" is also ${path}[${first}]'s; names are unique within a stage (give one a name option)`,
      );
    } else seen.set(compiled.guardrail.name, index);
    list.push(compiled.guardrail);
  });
  return list;
}

/** A stage-lists object's lists (`{input?, output?, tools?}`), each undefined when not given. */
function compileLists(
  value: Record<string, unknown>,
  path: string,
  allowed: readonly string[],
  configTools: readonly string[],
  problems: string[],
): Partial<Record<GuardrailStage, CompiledGuardrail[]>> {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problems.push(`${path}: unknown key "${key}"`);
  }
  const lists: Partial<Record<GuardrailStage, CompiledGuardrail[]>> = {};
  for (const stage of stages) {
    const list = compileList(value[stage], stage, `${path}.${stage}`, configTools, problems);
    if (list !== undefined) lists[stage] = list;
  }
  return lists;
}

/** The global lists `YEOUL_GUARDRAILS` names: each built-in with its defaults, at every stage it works on. */
function environmentLists(
  names: readonly string[],
  configTools: readonly string[],
  problems: string[],
): StageLists {
  const lists: Record<GuardrailStage, CompiledGuardrail[]> = { input: [], output: [], tools: [] };
  for (const name of names) {
    if (!(defaultableBuiltins as readonly string[]).includes(name)) {
      problems.push(
        `YEOUL_GUARDRAILS: unknown guardrail "${name}"; use off or a comma list of ${defaultableBuiltins.join(', ')}`,
      );
      continue;
    }
    for (const stage of builtinStages[name as (typeof defaultableBuiltins)[number]]) {
      const compiled = compileEntry(name, stage, 'YEOUL_GUARDRAILS', configTools);
      if (compiled.guardrail && !lists[stage].some((guardrail) => guardrail.name === name))
        lists[stage].push(compiled.guardrail);
    }
  }
  return lists;
}

/**
 * Compiles a config's `guardrails` (and `YEOUL_GUARDRAILS`) into every chat graph's guardrails,
 * or says every problem, a line each with its path. `graphs.NAME` replaces the global list of
 * each stage it names (`false`: none for that graph); the environment's list replaces the global
 * lists, and `off` turns every guardrail off.
 * @example
 * const compiled = compileGuardrails({ input: [pii()] }, { chatGraphs: ['support'], configTools: [] });
 * if (compiled.ok) compiled.suite.forGraph('support').names.input; // ['pii']
 */
export function compileGuardrails(
  config: GuardrailsConfig | undefined,
  options: CompileGuardrailsOptions,
): { ok: true; suite: GuardrailSuite } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const { configTools, chatGraphs, environment } = options;
  let global: StageLists = noGuardrails;
  const graphs = new Map<string, StageLists | false>();
  if (config !== undefined && !isRecord(config)) {
    problems.push('guardrails: an object {input?, output?, tools?, graphs?}');
  } else if (config !== undefined) {
    const lists = compileLists(
      config as Record<string, unknown>,
      'guardrails',
      [...stages, 'graphs'],
      configTools,
      problems,
    );
    global = { input: lists.input ?? [], output: lists.output ?? [], tools: lists.tools ?? [] };
    const perGraph = (config as Record<string, unknown>).graphs;
    if (perGraph !== undefined && !isRecord(perGraph)) {
      problems.push('guardrails.graphs: {GRAPH: {input?, output?, tools?} or false}');
    } else {
      for (const [graph, value] of Object.entries(perGraph ?? {})) {
        const path = `guardrails.graphs.${graph}`;
        if (!chatGraphs.includes(graph)) problems.push(`${path}: no chat graph "${graph}"`);
        if (value === false) graphs.set(graph, false);
        else if (!isRecord(value)) problems.push(`${path}: {input?, output?, tools?} or false`);
        else
          graphs.set(graph, compileLists(value, path, stages, configTools, problems) as StageLists);
      }
    }
  }
  if (Array.isArray(environment)) global = environmentLists(environment, configTools, problems);
  if (problems.length > 0) return { ok: false, problems };
  if (environment === 'off')
    return { ok: true, suite: new CompiledSuite(noGuardrails, new Map(), chatGraphs) };
  const resolved = new Map<string, StageLists>();
  for (const [graph, lists] of graphs) {
    resolved.set(
      graph,
      lists === false
        ? noGuardrails
        : {
            input: lists.input ?? global.input,
            output: lists.output ?? global.output,
            tools: lists.tools ?? global.tools,
          },
    );
  }
  return { ok: true, suite: new CompiledSuite(global, resolved, chatGraphs) };
}

import type { CompiledGraph, CompileOptions, StateSchema } from '../../graph/index.ts';
import { buildChatGraph } from '../chat/build-chat-graph.ts';
import { chatRunInput } from '../chat/chat-state.ts';
import { type AgentRunInput, innerAgent, resumeInnerAgent } from '../inner-agent.ts';
import { buildOpsGraph } from '../ops/build-ops-graph.ts';
import { buildReactGraph, reactRunInput } from '../react/build-react-graph.ts';
import type { AgentDependencies } from '../types.ts';
import {
  type BuiltinGraphName,
  builtinGraphNames,
  defaultGraphName,
  evaluationGraphName,
} from './builtin-graphs.ts';
import type { GraphEntry, Handoff } from './graph-entry.ts';

/** What the built-in agents of one configuration are built from. */
export interface BuiltinSettings {
  /** The dependencies of every agent without its own. */
  deps: AgentDependencies;
  /** Each built-in agent's own dependencies (persona, tools, model, memory), when it has some. */
  agents?: Partial<Record<BuiltinGraphName, AgentDependencies>>;
  compile: CompileOptions;
}

/** A built-in agent graph: how it is built, and the input that starts it on a prompt. */
interface AgentGraph {
  build(deps: AgentDependencies, compile: CompileOptions): CompiledGraph<StateSchema, unknown>;
  runInput: AgentRunInput;
}

/** The built-in agents that answer on a session's thread (every built-in but the loop). */
const agentGraphs: Record<Exclude<BuiltinGraphName, typeof evaluationGraphName>, AgentGraph> = {
  chat: {
    build: buildChatGraph as unknown as AgentGraph['build'],
    runInput: chatRunInput as AgentRunInput,
  },
  react: {
    build: buildReactGraph as unknown as AgentGraph['build'],
    runInput: reactRunInput as AgentRunInput,
  },
};

/**
 * The built-in agents' entries for one configuration, the default first, and the evaluation
 * loop (the `ops` entry's graph) that any message asking for evaluation runs in. The loop's
 * inner agent runs with the `ops` agent's dependencies when it has its own; its judge is
 * that agent's model (none on the offline model).
 */
export function buildBuiltinEntries(settings: BuiltinSettings) {
  const { deps, agents = {}, compile } = settings;
  const evaluationDeps = agents[evaluationGraphName];
  const judgeModel = (evaluationDeps ?? deps).model;
  const judge = judgeModel.info.provider === 'offline' ? undefined : judgeModel;
  const loop = buildOpsGraph(judge ? { judge } : {}, compile);
  const made = new Map<string, GraphEntry>();
  for (const [name, agent] of Object.entries(agentGraphs)) {
    const graph = agent.build(agents[name as BuiltinGraphName] ?? deps, compile);
    const evaluated = evaluationDeps ? agent.build(evaluationDeps, compile) : graph;
    const handoff: Handoff = {
      evaluate: false,
      thread: graph,
      agent: (setup, underLoop) => innerAgent(underLoop ? evaluated : graph, agent.runInput, setup),
      resume: (sessionId, run) => resumeInnerAgent(graph, sessionId, run),
    };
    made.set(name, { name, builtin: true, chat: true, graph, handoff });
  }
  const inner = (made.get(defaultGraphName) as GraphEntry).handoff;
  made.set(evaluationGraphName, {
    name: evaluationGraphName,
    builtin: true,
    chat: true,
    graph: loop as unknown as CompiledGraph<StateSchema, unknown>,
    handoff: { ...inner, evaluate: true, agent: (setup) => inner.agent(setup, true) },
  });
  return { entries: builtinGraphNames.map((name) => made.get(name) as GraphEntry), loop };
}

import type { RouteContext } from './route-context.ts';

/**
 * Whether a run of `graph` streams its answers token by token: not when the graph has output
 * guardrails, which may still replace an answer (its text then goes out once checked). One rule
 * for every surface that streams answers (LangGraph, AG-UI, Responses).
 */
export function answersStreamLive(context: RouteContext, graph: string): boolean {
  return context.runtime.guards.suite.forGraph(graph).names.output.length === 0;
}

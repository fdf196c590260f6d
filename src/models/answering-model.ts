import { AsyncLocalStorage } from 'node:async_hooks';

const scopes = new AsyncLocalStorage<AnsweringModelScope>();

/**
 * Notes which model made the latest successful model call of a piece of work (a run):
 * every model call made inside `run` (however deep in graphs, nodes and subgraphs) writes
 * its answering model here.
 * @example
 * const scope = new AnsweringModelScope();
 * await scope.run(() => runner.invoke(request));
 * scope.model; // 'compat:fallback'
 */
export class AnsweringModelScope {
  /** The `<provider>:<model id>` of the latest successful call; undefined while none succeeded. */
  model: string | undefined;

  /** Runs `work` with its model calls noted here. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return scopes.run(this, work);
  }
}

/** Notes `model` as the answering model of the current scope, if the call is inside one. */
export function noteAnsweringModel(model: string): void {
  const scope = scopes.getStore();
  if (scope !== undefined) scope.model = model;
}

import { createId } from '../../core/index.ts';
import type { PendingInterrupt } from '../checkpoint/types.ts';
import type { ResumeInfo } from '../interrupt.ts';

/** A question a node asked, as its task reports it (one passed on from a subgraph has its id and path). */
interface AskedQuestion {
  key: string;
  id?: string;
  value: unknown;
  createdAt?: number;
  path?: string[];
}

/** Interrupts of a node with ids: an open question asked again keeps its id. */
export function interruptsOf(
  node: string,
  requests: readonly AskedQuestion[],
  resume: ResumeInfo | undefined,
): PendingInterrupt[] {
  const now = Date.now();
  return requests.map((request) => {
    const earlier = resume?.interrupts.find(
      (pending) => pending.node === node && pending.key === request.key,
    );
    return {
      id: request.id ?? earlier?.id ?? createId(),
      key: request.key,
      node,
      value: request.value,
      createdAt: request.createdAt ?? earlier?.createdAt ?? now,
      ...(request.path === undefined ? {} : { path: request.path }),
    };
  });
}

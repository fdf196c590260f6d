import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../identity/index.ts';
import { A2aError, a2aCodes } from './a2a-error.ts';
import { type StreamResult, streamResultTo03, taskTo03 } from './a2a-legacy.ts';
import {
  type A2aVersion,
  getParamsSchema,
  idParamsSchema,
  listParamsSchema,
  paramsFrom03,
  parseParams,
  sendParamsSchema,
  turnOf,
} from './a2a-request.ts';
import type { A2aTask } from './a2a-task.ts';
import type { A2aTasks } from './a2a-tasks.ts';
import { TaskEventStream } from './task-events.ts';

/** What each method does, the version whose shapes it answers in, and the scope it needs. */
const methods: Record<string, { operation: string; version: A2aVersion; scope: Scope }> = {
  SendMessage: { operation: 'send', version: '1.0', scope: 'yeoul:write' },
  SendStreamingMessage: { operation: 'stream', version: '1.0', scope: 'yeoul:write' },
  GetTask: { operation: 'get', version: '1.0', scope: 'yeoul:read' },
  ListTasks: { operation: 'list', version: '1.0', scope: 'yeoul:read' },
  CancelTask: { operation: 'cancel', version: '1.0', scope: 'yeoul:write' },
  SubscribeToTask: { operation: 'subscribe', version: '1.0', scope: 'yeoul:read' },
  'message/send': { operation: 'send', version: '0.3', scope: 'yeoul:write' },
  'message/stream': { operation: 'stream', version: '0.3', scope: 'yeoul:write' },
  'tasks/get': { operation: 'get', version: '0.3', scope: 'yeoul:read' },
  'tasks/cancel': { operation: 'cancel', version: '0.3', scope: 'yeoul:write' },
  'tasks/resubscribe': { operation: 'subscribe', version: '0.3', scope: 'yeoul:read' },
};

/** Methods of push notifications (-32003) and of the extended card (-32007), in both versions. */
const pushMethods = /^(?:\w*TaskPushNotificationConfigs?|tasks\/pushNotificationConfig\/\w+)$/;
const extendedCardMethods = new Set(['GetExtendedAgentCard', 'agent/getAuthenticatedExtendedCard']);

/** A JSON-RPC request as read: its id (for the answer) and what it asks. */
export interface RpcCall {
  id: string | number | null;
  method: string;
  params: unknown;
}

/** Reads a JSON-RPC 2.0 request; -32600 for anything else. */
export function rpcCallOf(body: unknown): RpcCall {
  const envelope = body as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  const id =
    typeof envelope?.id === 'string' || typeof envelope?.id === 'number' ? envelope.id : null;
  if (
    typeof body !== 'object' ||
    body === null ||
    envelope.jsonrpc !== '2.0' ||
    typeof envelope.method !== 'string'
  ) {
    throw Object.assign(
      new A2aError({
        rpcCode: a2aCodes.invalidRequest,
        message: 'a JSON-RPC 2.0 request has jsonrpc: "2.0", a method and an id',
      }),
      { rpcId: id },
    );
  }
  return { id, method: envelope.method, params: envelope.params };
}

/**
 * Answers one JSON-RPC call on graph `graph`: a result to send, or undefined when the answer
 * went out as an event stream. `requireScope` refuses credentials without the method's scope.
 */
export async function answerRpc(
  tasks: A2aTasks,
  call: RpcCall,
  graph: string,
  request: FastifyRequest,
  reply: FastifyReply,
  requireScope: (scope: Scope) => void,
): Promise<unknown> {
  if (pushMethods.test(call.method)) {
    throw new A2aError({
      rpcCode: a2aCodes.pushNotSupported,
      message: 'push notifications are not supported',
    });
  }
  if (extendedCardMethods.has(call.method)) {
    throw new A2aError({
      rpcCode: a2aCodes.extendedCardNotConfigured,
      message: 'there is no extended agent card: the public card says everything',
    });
  }
  const method = methods[call.method];
  if (method === undefined) {
    throw new A2aError({ rpcCode: a2aCodes.methodNotFound, message: `no method "${call.method}"` });
  }
  requireScope(method.scope);
  const legacy = method.version === '0.3';
  const shown = (task: A2aTask) => (legacy ? taskTo03(task) : task);
  const params = legacy ? paramsFrom03(call.method, call.params) : call.params;
  switch (method.operation) {
    case 'send': {
      const turn = turnOf(parseParams(sendParamsSchema, params));
      const task = await tasks.send(request, reply, graph, turn);
      return legacy ? taskTo03(task) : { task };
    }
    case 'stream': {
      const turn = turnOf(parseParams(sendParamsSchema, params));
      await tasks.stream(request, reply, graph, turn, eventStream(reply, call.id, legacy));
      return undefined;
    }
    case 'get': {
      const { id, historyLength } = parseParams(getParamsSchema, params);
      return shown(await tasks.get(request, id, historyLength));
    }
    case 'cancel': {
      const { id } = parseParams(idParamsSchema, params);
      return shown(await tasks.cancel(request, id));
    }
    case 'subscribe': {
      const { id } = parseParams(idParamsSchema, params);
      await tasks.subscribe(request, reply, id, eventStream(reply, call.id, legacy));
      return undefined;
    }
    default:
      return tasks.list(request, parseParams(listParamsSchema, params));
  }
}

/** A stream whose events are JSON-RPC responses to `id` (in 0.3's shapes for 0.3's methods). */
function eventStream(reply: FastifyReply, id: RpcCall['id'], legacy: boolean): TaskEventStream {
  return new TaskEventStream(reply.raw, (result: StreamResult, final: boolean) => ({
    jsonrpc: '2.0',
    id,
    result: legacy ? streamResultTo03(result, final) : result,
  }));
}

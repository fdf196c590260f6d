// The client and the server speak one protocol: the client's types are inferred from the zod
// schemas in src/protocol/, the server validates requests and documents answers with the
// same objects. These checks fail when one side stops using them: the type assertions below
// (`npm run check`), the routes in /openapi.json, the server's verdict on bodies at the
// schemas' limits, and the fields of the server's real answers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import {
  type AgentEvent,
  type GraphEvent,
  YeoulApiError,
  YeoulClient,
} from '../src/client/index.ts';
import { sessionIdPattern as coreSessionIdPattern } from '../src/core/index.ts';
import {
  agentStreamEventSchemas,
  documentListSchema,
  documentsBody,
  documentsCreatedSchema,
  evalRunBody,
  evalRunListSchema,
  evalRunSchema,
  evalRunStartedSchema,
  feedbackBody,
  feedbackSavedSchema,
  forkBody,
  forkResponseSchema,
  graphListSchema,
  graphRunBody,
  graphRunResponseSchema,
  type graphStreamEventSchemas,
  historySchema,
  invokeBody,
  invokeResponseSchema,
  memoryItemSchema,
  memoryListSchema,
  memoryPutBody,
  meResponseSchema,
  searchBody,
  searchResponseSchema,
  sessionIdPattern,
  sessionListSchema,
  sessionSchema,
  statusResponseSchema,
} from '../src/protocol/index.ts';
import type { RunningServer } from '../src/server/index.ts';
import { schemaDrift } from '../src/testing/internal/index.ts';
import { startTestServer } from '../src/testing/internal/test-server.ts';

const root = mkdtempSync(join(tmpdir(), 'yeoul-client-protocol-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Input<
  Method extends (...args: never[]) => unknown,
  Index extends number,
> = Parameters<Method>[Index];
type Output<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
type DataOf<Events, Name> =
  Extract<Events, { event: Name }> extends { data: infer Data } ? Data : never;
type Client = YeoulClient;
/** A request body or an answer in /openapi.json: its schema by media type. */
type Content = { content: Record<string, { schema: unknown } | undefined> };

/** tsc fails here when a client method's types stop being the shared schemas' types. */
export type ClientTypesAreTheProtocol = [
  Expect<Equal<Input<Client['invoke'], 0>, z.input<typeof invokeBody>>>,
  Expect<Equal<Output<Client['invoke']>, z.output<typeof invokeResponseSchema>>>,
  Expect<Equal<Input<Client['stream'], 0>, z.input<typeof invokeBody>>>,
  Expect<Equal<DataOf<AgentEvent, 'done'>, z.output<typeof invokeResponseSchema>>>,
  Expect<
    Equal<DataOf<AgentEvent, 'interrupt'>, z.output<typeof agentStreamEventSchemas.interrupt>>
  >,
  Expect<
    Equal<
      DataOf<AgentEvent, 'tool-result'>,
      z.output<(typeof agentStreamEventSchemas)['tool-result']>
    >
  >,
  Expect<
    Equal<
      Input<Client['resume'], 1>,
      NonNullable<z.input<typeof invokeBody>['resume']>['decisions']
    >
  >,
  Expect<Equal<Output<Client['resume']>, z.output<typeof invokeResponseSchema>>>,
  Expect<Equal<Output<Client['status']>, z.output<typeof statusResponseSchema>>>,
  Expect<Equal<Input<Client['search'], 0>, z.input<typeof searchBody>['query']>>,
  Expect<Equal<Input<Client['search'], 1>, z.input<typeof searchBody>['k']>>,
  Expect<Equal<Output<Client['search']>, z.output<typeof searchResponseSchema>>>,
  Expect<Equal<Output<Client['sessions']['list']>, z.output<typeof sessionListSchema>>>,
  Expect<Equal<Output<Client['sessions']['get']>, z.output<typeof sessionSchema>>>,
  Expect<Equal<Output<Client['sessions']['history']>, z.output<typeof historySchema>>>,
  Expect<Equal<Input<Client['sessions']['fork'], 1>, z.input<typeof forkBody>>>,
  Expect<Equal<Output<Client['sessions']['fork']>, z.output<typeof forkResponseSchema>>>,
  Expect<Equal<Input<Client['documents']['add'], 0>, z.input<typeof documentsBody>>>,
  Expect<Equal<Output<Client['documents']['add']>, z.output<typeof documentsCreatedSchema>>>,
  Expect<Equal<Output<Client['documents']['list']>, z.output<typeof documentListSchema>>>,
  Expect<Equal<Output<Client['graphs']['list']>, z.output<typeof graphListSchema>>>,
  Expect<Equal<Input<Client['graphs']['invoke'], 1>, z.input<typeof graphRunBody>>>,
  Expect<Equal<Output<Client['graphs']['invoke']>, z.output<typeof graphRunResponseSchema>>>,
  Expect<Equal<Input<Client['graphs']['stream'], 1>, z.input<typeof graphRunBody>>>,
  Expect<Equal<DataOf<GraphEvent, 'step'>, z.output<typeof graphStreamEventSchemas.step>>>,
  Expect<Equal<DataOf<GraphEvent, 'done'>, z.output<typeof graphRunResponseSchema>>>,
];

/** One thing the client does: the request it must make and the schemas its types come from. */
interface Route {
  name: string;
  call: (client: YeoulClient) => Promise<unknown>;
  method: 'get' | 'post' | 'put' | 'delete';
  /** The OpenAPI path; `{id}` is `s-1`, `{name}` is `g-1` in the request made. */
  path: string;
  request?: z.ZodType;
  response?: z.ZodType;
  status?: '200' | '201' | '202';
}

const first = (events: AsyncGenerator<unknown>) => events.next();

const routes: Route[] = [
  {
    name: 'invoke',
    call: (c) => c.invoke({ message: 'hi' }),
    method: 'post',
    path: '/api/agent/invoke',
    request: invokeBody,
    response: invokeResponseSchema,
  },
  {
    name: 'stream',
    call: (c) => first(c.stream({ message: 'hi' })),
    method: 'post',
    path: '/api/agent/stream',
    request: invokeBody,
  },
  {
    name: 'resume',
    call: (c) => c.resume('s-1', [{ id: 'i-1', approve: true }]),
    method: 'post',
    path: '/api/agent/invoke',
    request: invokeBody,
    response: invokeResponseSchema,
  },
  {
    name: 'status',
    call: (c) => c.status(),
    method: 'get',
    path: '/api/agent/status',
    response: statusResponseSchema,
  },
  {
    name: 'me',
    call: (c) => c.me(),
    method: 'get',
    path: '/api/me',
    response: meResponseSchema,
  },
  {
    name: 'search',
    call: (c) => c.search('otters', 3),
    method: 'post',
    path: '/api/search',
    request: searchBody,
    response: searchResponseSchema,
  },
  {
    name: 'sessions.list',
    call: (c) => c.sessions.list(),
    method: 'get',
    path: '/api/sessions',
    response: sessionListSchema,
  },
  {
    name: 'sessions.get',
    call: (c) => c.sessions.get('s-1'),
    method: 'get',
    path: '/api/sessions/{id}',
    response: sessionSchema,
  },
  {
    name: 'sessions.history',
    call: (c) => c.sessions.history('s-1'),
    method: 'get',
    path: '/api/sessions/{id}/history',
    response: historySchema,
  },
  {
    name: 'sessions.delete',
    call: (c) => c.sessions.delete('s-1'),
    method: 'delete',
    path: '/api/sessions/{id}',
  },
  {
    name: 'sessions.fork',
    call: (c) => c.sessions.fork('s-1', { atStep: 2 }),
    method: 'post',
    path: '/api/sessions/{id}/fork',
    request: forkBody,
    response: forkResponseSchema,
    status: '201',
  },
  {
    name: 'sessions.feedback',
    call: (c) => c.sessions.feedback('s-1', { rating: 1 }),
    method: 'post',
    path: '/api/sessions/{id}/feedback',
    request: feedbackBody,
    response: feedbackSavedSchema,
    status: '201',
  },
  {
    name: 'memory.list',
    call: (c) => c.memory.list(),
    method: 'get',
    path: '/api/memory',
    response: memoryListSchema,
  },
  {
    name: 'memory.get',
    call: (c) => c.memory.get('profile', 'name'),
    method: 'get',
    path: '/api/memory/{namespace}/{key}',
    response: memoryItemSchema,
  },
  {
    name: 'memory.put',
    call: (c) => c.memory.put('profile', 'name', '철수'),
    method: 'put',
    path: '/api/memory/{namespace}/{key}',
    request: memoryPutBody,
    response: memoryItemSchema,
  },
  {
    name: 'memory.delete',
    call: (c) => c.memory.delete('profile', 'name'),
    method: 'delete',
    path: '/api/memory/{namespace}/{key}',
  },
  {
    name: 'evals.start',
    call: (c) => c.evals.start({ items: [{ input: 'hi' }] }),
    method: 'post',
    path: '/api/evals',
    request: evalRunBody,
    response: evalRunStartedSchema,
    status: '202',
  },
  {
    name: 'evals.list',
    call: (c) => c.evals.list(),
    method: 'get',
    path: '/api/evals',
    response: evalRunListSchema,
  },
  {
    name: 'evals.get',
    call: (c) => c.evals.get('s-1'),
    method: 'get',
    path: '/api/evals/{id}',
    response: evalRunSchema,
  },
  {
    name: 'sessions.cancel',
    call: (c) => c.sessions.cancel('s-1'),
    method: 'post',
    path: '/api/sessions/{id}/cancel',
  },
  {
    name: 'sessions.join',
    call: (c) => first(c.sessions.join('s-1')),
    method: 'get',
    path: '/api/sessions/{id}/stream',
  },
  {
    name: 'documents.add',
    call: (c) => c.documents.add({ documents: [{ text: 'x' }] }),
    method: 'post',
    path: '/api/documents',
    request: documentsBody,
    response: documentsCreatedSchema,
    status: '201',
  },
  {
    name: 'documents.upload',
    call: (c) => c.documents.upload({ file: new Blob(['x']), filename: 'x.txt' }),
    method: 'post',
    path: '/api/documents',
    response: documentsCreatedSchema,
    status: '201',
  },
  {
    name: 'documents.list',
    call: (c) => c.documents.list(),
    method: 'get',
    path: '/api/documents',
    response: documentListSchema,
  },
  {
    name: 'documents.delete',
    call: (c) => c.documents.delete('s-1'),
    method: 'delete',
    path: '/api/documents/{id}',
  },
  {
    name: 'graphs.list',
    call: (c) => c.graphs.list(),
    method: 'get',
    path: '/api/graphs',
    response: graphListSchema,
  },
  {
    name: 'graphs.invoke',
    call: (c) => c.graphs.invoke('g-1', { input: { count: 1 } }),
    method: 'post',
    path: '/api/graphs/{name}/invoke',
    request: graphRunBody,
    response: graphRunResponseSchema,
  },
  {
    name: 'graphs.stream',
    call: (c) => first(c.graphs.stream('g-1', { input: { count: 1 } })),
    method: 'post',
    path: '/api/graphs/{name}/stream',
    request: graphRunBody,
  },
];

/** The client's methods, namespaces included: `invoke`, …, `sessions.list`, …. */
function clientMethods(client: YeoulClient): string[] {
  const own = Object.getOwnPropertyNames(YeoulClient.prototype).filter(
    (name) => name !== 'constructor',
  );
  const namespaces = Object.entries(client).flatMap(([space, methods]) =>
    Object.keys(methods as object).map((name) => `${space}.${name}`),
  );
  return [...own, ...namespaces].sort();
}

interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

/** A client whose fetch records each request and answers it as a server would, minimally. */
function recordingClient(recorded: Recorded[]): YeoulClient {
  return new YeoulClient({
    baseUrl: 'http://yeoul.test',
    fetch: async (input, init) => {
      const body = init?.body;
      recorded.push({
        method: (init?.method ?? 'GET').toLowerCase(),
        path: new URL(String(input)).pathname,
        body: typeof body === 'string' ? JSON.parse(body) : body,
      });
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (headers.accept === 'text/event-stream') {
        return new Response('id: r:1\nevent: done\ndata: {}\n\n', {
          headers: { 'content-type': 'text/event-stream' },
        });
      }
      return Response.json({});
    },
  });
}

const concretePath = (path: string) =>
  path
    .replace('{id}', 's-1')
    .replace('{name}', 'g-1')
    .replace('{namespace}', 'profile')
    .replace('{key}', 'name');

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });

describe('the client and the server share one protocol', () => {
  const recorded: Recorded[] = [];
  const recorder = recordingClient(recorded);

  it('the route table names every method of the client', () => {
    assert.deepEqual(clientMethods(recorder), routes.map((route) => route.name).sort());
  });

  it('each method makes the request of its route, with a body its schema accepts', async () => {
    for (const route of routes) {
      recorded.length = 0;
      await route.call(recorder);
      assert.equal(recorded.length, 1, route.name);
      const [request] = recorded;
      assert.deepEqual(
        { method: request?.method, path: request?.path },
        { method: route.method, path: concretePath(route.path) },
        route.name,
      );
      if (route.request) route.request.parse(request?.body);
      else if (route.name !== 'documents.upload')
        assert.equal(request?.body, undefined, route.name);
    }
  });

  it('the session id rule is the same in the protocol and in core', () => {
    assert.equal(sessionIdPattern.source, coreSessionIdPattern.source);
  });

  describe('against a real server', () => {
    let server: RunningServer;
    let client: YeoulClient;
    before(async () => {
      ({ server } = await startTestServer(mkdtempSync(join(root, 'data-'))));
      client = new YeoulClient({ baseUrl: server.url });
    });
    after(() => server.close());

    it('documents every route the client calls in /openapi.json with the schemas its types come from', async () => {
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<
          string,
          Record<string, { requestBody?: Content; responses: Record<string, Content | undefined> }>
        >;
      };
      for (const route of routes) {
        const operation = document.paths[route.path]?.[route.method];
        assert.ok(
          operation,
          `${route.name}: ${route.method.toUpperCase()} ${route.path} is not in /openapi.json`,
        );
        if (route.request) {
          assert.deepEqual(
            operation.requestBody?.content['application/json']?.schema,
            jsonSchema(route.request, 'input'),
            `${route.name}: the documented request body is not the client's`,
          );
        }
        if (route.response) {
          assert.deepEqual(
            operation.responses[route.status ?? '200']?.content['application/json']?.schema,
            jsonSchema(route.response, 'output'),
            `${route.name}: the documented answer is not the client's`,
          );
        }
      }
    });

    it('refuses exactly the bodies the shared schemas refuse, at their limits', async () => {
      const probes: Array<[string, z.ZodType, unknown, (body: never) => Promise<unknown>]> = [];
      const invoke = (body: never) => client.invoke(body);
      const search = (body: { query: string; k?: number }) => client.search(body.query, body.k);
      const add = (body: never) => client.documents.add(body);
      for (const body of [
        { message: 'hello', options: { temperature: 2, maxIterations: 20 } },
        { message: 'hello', options: { temperature: 2.01 } },
        { message: 'hello', options: { maxIterations: 21 } },
        { message: 'hello', options: { onDisconnect: 'later' } },
        { message: 'hello', sessionId: 'a b' },
        { message: 'hello', sessionId: 'x'.repeat(129) },
        { message: 'hello', colour: 'blue' },
        { resume: { decisions: [{ id: 'i', approve: true }] } },
        {},
      ]) {
        probes.push(['invoke', invokeBody, body, invoke]);
      }
      for (const body of [
        { query: 'q', k: 50 },
        { query: 'q', k: 51 },
        { query: 'q', k: 1.5 },
        { query: '' },
      ]) {
        probes.push(['search', searchBody, body, search as (body: never) => Promise<unknown>]);
      }
      for (const body of [
        { documents: [{ id: 'probe', text: 'a probe', metadata: { a: 1 } }] },
        { documents: [{ text: '' }] },
        { documents: [] },
        { documents: [{ text: 'x', author: 'me' }] },
      ]) {
        probes.push(['documents.add', documentsBody, body, add]);
      }
      const disagreements: string[] = [];
      for (const [name, schema, body, send] of probes) {
        const accepted = schema.safeParse(body).success;
        const answer = await send(body as never).catch((error: unknown) => error);
        const refused = answer instanceof YeoulApiError && answer.code === 'invalid_request';
        if (accepted === refused) {
          disagreements.push(
            `${name} ${JSON.stringify(body)}: schema ${accepted ? 'accepts' : 'refuses'}, server ${refused ? 'refuses' : 'accepts'}`,
          );
        }
      }
      assert.deepEqual(disagreements, []);
    });

    it('answers with exactly the fields the shared schemas describe', async () => {
      const answers: Array<[string, z.ZodType, unknown]> = [];
      const created = await client.documents.add({
        documents: [{ id: 'fields', title: 'Fields', text: 'Rapids run fast.' }],
      });
      answers.push(['documents.add', documentsCreatedSchema, created]);
      answers.push(['documents.list', documentListSchema, await client.documents.list()]);
      answers.push(['search', searchResponseSchema, await client.search('rapids')]);
      answers.push(['status', statusResponseSchema, await client.status()]);
      answers.push(['me', meResponseSchema, await client.me()]);
      const invoked = await client.invoke({ message: '2 + 3 계산해줘' });
      answers.push(['invoke', invokeResponseSchema, invoked]);
      // A fork, so that the listing and the fork's own answer carry `forkedFrom`.
      const forked = await client.sessions.fork(invoked.sessionId, { atStep: -1 });
      answers.push(['sessions.fork', forkResponseSchema, forked]);
      answers.push([
        'sessions.get (fork)',
        sessionSchema,
        await client.sessions.get(forked.sessionId),
      ]);
      answers.push(['sessions.list', sessionListSchema, await client.sessions.list()]);
      answers.push(['sessions.get', sessionSchema, await client.sessions.get(invoked.sessionId)]);
      answers.push([
        'sessions.history',
        historySchema,
        await client.sessions.history(invoked.sessionId),
      ]);
      for await (const event of client.stream({ message: '4 * 5 계산해줘' })) {
        answers.push([
          `stream ${event.event}`,
          agentStreamEventSchemas[event.event] as z.ZodType,
          event.data,
        ]);
      }
      const problems = answers.flatMap(([name, schema, value]) => schemaDrift(name, schema, value));
      assert.deepEqual(problems, []);
    });
  });
});

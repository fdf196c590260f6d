import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { z } from 'zod';
import { defineRoute, type RouteGroup } from './define-route.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { type RouteGuard, registerRoutes } from './register-routes.ts';

const noteBody = z.strictObject({ text: z.string().min(1) });
const noteParams = z.strictObject({ id: z.string().max(8).describe('the note id') });

const notes: RouteGroup = {
  tag: { name: 'notes', description: 'Notes' },
  routes: [
    defineRoute({
      method: 'POST',
      path: '/notes/:id',
      scope: 'yeoul:write',
      operationId: 'saveNote',
      summary: 'Save a note',
      request: { params: noteParams, body: noteBody, emptyBody: {} },
      responses: { 201: { description: 'saved', schema: noteBody } },
      errors: [400, 404],
      handler: async (_request, reply, input) => {
        const { id } = input.params();
        // Whose note it is comes before what was sent: parts are parsed when asked for.
        if (id === 'gone') throw new HttpError({ status: 404, code: 'not_found', message: id });
        return reply.code(201).send(input.body());
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/notes/:id',
      scope: 'yeoul:read',
      operationId: 'readNote',
      summary: 'Read a note',
      responses: { 200: { description: 'the note' } },
      handler: () => ({ text: 'hi' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/notes.css',
      hidden: true,
      public: true,
      handler: () => 'css',
    }),
  ],
};

const errorsOnly: RouteGroup = {
  prefix: '/v2',
  errorBody: z.object({ problem: z.string() }),
  routes: [
    defineRoute({
      method: 'GET',
      path: '/ping',
      scope: null,
      operationId: 'ping',
      summary: 'Ping',
      responses: { 200: { description: 'pong' } },
      errors: [401],
      handler: () => 'pong',
    }),
  ],
};

async function appWith(groups: RouteGroup[], guard?: RouteGuard) {
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorResponse(error);
    void reply.code(status).send(body);
  });
  registerRoutes(app, groups, { version: '1.2.3', ...(guard ? { guard } : {}) });
  await app.ready();
  return app;
}

describe('declared routes', () => {
  it('parses each declared part with its schema, when the handler asks for it', async () => {
    const app = await appWith([notes]);
    const post = (url: string, payload?: Record<string, string>) =>
      app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload }) });
    assert.equal((await post('/notes/a', { text: 'hi' })).statusCode, 201);
    assert.equal((await post('/notes/gone', { text: '' })).json().error.code, 'not_found');
    const bad = (await post('/notes/toolong-id', { text: 'hi' })).json();
    assert.match(bad.error.message, /^id: /);
    // No body reads as the declared empty body, so the problem names the field.
    assert.match((await post('/notes/a')).json().error.message, /^text: /);
    await app.close();
  });

  it('documents every route but the hidden ones, from the same declarations', async () => {
    const app = await appWith([notes, errorsOnly]);
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(document.info.version, '1.2.3');
    assert.deepEqual(Object.keys(document.paths), ['/notes/{id}', '/v2/ping']);
    const save = document.paths['/notes/{id}'].post;
    assert.deepEqual(save.tags, ['notes']);
    assert.deepEqual(save.parameters, [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: 'the note id',
        schema: { type: 'string', maxLength: 8 },
      },
    ]);
    assert.deepEqual(save.requestBody.content['application/json'].schema.required, ['text']);
    assert.ok(save.responses['201'].content['application/json']);
    assert.ok(save.responses['404'].content['application/json'].schema.properties.error);
    assert.deepEqual(save.security, [{ bearer: ['yeoul:write'] }]);
    assert.deepEqual(Object.keys(save.responses), ['201', '400', '401', '403', '404']);
    const ping = document.paths['/v2/ping'].get;
    assert.ok(ping.responses['401'].content['application/json'].schema.properties.problem);
    assert.equal(ping.security, undefined, 'any accepted credentials: the document’s own');
    assert.equal(ping.responses['403'], undefined);
    assert.equal((await app.inject({ method: 'GET', url: '/notes.css' })).body, 'css');
    await app.close();
  });

  it('refuses a caller without the declared scope before the body is read, saying which', async () => {
    let saved = 0;
    const reader = {
      owner: 'jwt:reader',
      via: 'jwt' as const,
      scopes: new Set(['yeoul:read' as const]),
      admin: false,
      expiresAt: null,
    };
    const refused: string[] = [];
    const app = await appWith(
      [
        {
          routes: notes.routes.map((route) =>
            route.method === 'POST' ? { ...route, handler: () => ++saved } : route,
          ),
        },
        errorsOnly,
      ],
      { identityOf: () => reader, onRefused: (scope) => refused.push(scope) },
    );
    // An over-long body would be a 413 after reading it: the scope is checked first.
    const denied = await app.inject({
      method: 'POST',
      url: '/notes/a',
      payload: { text: 'x'.repeat(2_000_000) },
    });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().error.code, 'insufficient_scope');
    assert.match(
      denied.json().error.message,
      /needs yeoul:write; these credentials hold yeoul:read$/,
    );
    assert.equal(
      denied.headers['www-authenticate'],
      'Bearer error="insufficient_scope", scope="yeoul:write"',
    );
    assert.equal(saved, 0);
    assert.deepEqual(refused, ['yeoul:write']);
    assert.equal((await app.inject({ method: 'GET', url: '/notes/a' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/v2/ping' })).statusCode, 200);
    await app.close();
  });
});

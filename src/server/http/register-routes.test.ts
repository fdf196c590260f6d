import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { z } from 'zod';
import { defineRoute, type RouteGroup } from './define-route.ts';
import { errorResponse, HttpError } from './http-error.ts';
import { registerRoutes } from './register-routes.ts';

const noteBody = z.strictObject({ text: z.string().min(1) });
const noteParams = z.strictObject({ id: z.string().max(8).describe('the note id') });

const notes: RouteGroup = {
  tag: { name: 'notes', description: 'Notes' },
  routes: [
    defineRoute({
      method: 'POST',
      path: '/notes/:id',
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
    defineRoute({ method: 'GET', path: '/notes.css', hidden: true, handler: () => 'css' }),
  ],
};

const errorsOnly: RouteGroup = {
  prefix: '/v2',
  errorBody: z.object({ problem: z.string() }),
  routes: [
    defineRoute({
      method: 'GET',
      path: '/ping',
      operationId: 'ping',
      summary: 'Ping',
      responses: { 200: { description: 'pong' } },
      errors: [401],
      handler: () => 'pong',
    }),
  ],
};

async function appWith(groups: RouteGroup[]) {
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorResponse(error);
    void reply.code(status).send(body);
  });
  registerRoutes(app, groups, { version: '1.2.3' });
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
    const ping = document.paths['/v2/ping'].get;
    assert.ok(ping.responses['401'].content['application/json'].schema.properties.problem);
    assert.equal((await app.inject({ method: 'GET', url: '/notes.css' })).body, 'css');
    await app.close();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../http/http-error.ts';
import { chatCompletionBody, v1TurnOf } from './chat-completion-request.ts';
import { openAiError } from './openai-error.ts';

const turnOf = (body: unknown) =>
  v1TurnOf(chatCompletionBody.parse(body), ['chat', 'react', 'ops', 'triage']);

describe('chat-completions requests', () => {
  it('turns the messages into the new turn and the history before it', () => {
    const turn = turnOf({
      model: 'yeoul-react',
      temperature: 0.2,
      max_completion_tokens: 50,
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'first' },
            { type: 'text', text: 'part' },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'x' }] },
        { role: 'tool', content: 'a tool result', tool_call_id: 'x' },
        { role: 'assistant', content: 'an answer' },
        { role: 'user', content: 'second' },
      ],
    });
    assert.deepEqual(turn, {
      graph: 'react',
      message: 'second',
      history: [
        { role: 'user', content: '[Instructions from the client application]\nBe brief.' },
        { role: 'user', content: 'first\npart' },
        { role: 'assistant', content: 'an answer' },
      ],
      temperature: 0.2,
      maxOutputTokens: 50,
    });
  });

  it('accepts the parameters OpenAI clients send and ignores what Yeoul has no use for', () => {
    const turn = turnOf({
      model: 'yeoul-chat',
      messages: [{ role: 'user', content: 'hi' }],
      top_p: 1,
      user: 'someone',
      tools: [],
      temperature: null,
      stream: false,
    });
    assert.deepEqual(turn, { graph: 'chat', message: 'hi', history: [] });
  });

  it('refuses the caller’s own tools, naming the parameter', () => {
    assert.throws(
      () =>
        turnOf({
          model: 'yeoul-chat',
          messages: [{ role: 'user', content: 'hi' }],
          tool_choice: 'auto',
        }),
      (error: HttpError) =>
        error.code === 'unsupported_parameter' && /tool_choice/.test(error.message),
    );
  });
});

describe('OpenAI error bodies', () => {
  it('keeps Yeoul’s code and the status of the one code→status map, with OpenAI’s type', () => {
    const { status, body } = openAiError(
      new HttpError({ status: 409, code: 'awaiting_approval', message: 'waiting' }),
    );
    assert.equal(status, 409);
    assert.deepEqual(body, {
      error: { message: 'waiting', type: 'conflict_error', param: null, code: 'awaiting_approval' },
    });
  });

  it('names a rejected key invalid_api_key and hides internal errors', () => {
    const unauthorized = openAiError(
      new HttpError({ status: 401, code: 'unauthorized', message: 'no key' }),
    );
    assert.equal(unauthorized.body.error.code, 'invalid_api_key');
    assert.equal(unauthorized.body.error.type, 'authentication_error');
    const internal = openAiError(new Error('secret detail'));
    assert.equal(internal.status, 500);
    assert.equal(internal.body.error.type, 'server_error');
    assert.doesNotMatch(internal.body.error.message, /secret/);
  });
});

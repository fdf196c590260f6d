import {
  type FakeAnswerTurn,
  type FakeChatProvider,
  type FakeChatScript,
  startFake,
  words,
} from './fake-chat-providers.ts';

/**
 * Azure OpenAI's Responses API (`POST /openai/v1/responses`), which the AI SDK's Azure
 * provider uses by default: a response object with `message` and `function_call` output
 * items, or server-sent events (response.created, output_item.added, output_text.delta,
 * function_call_arguments.delta, output_item.done, response.completed) when `stream` is
 * true; errors as `{error: {code, message}}`. Requests without the `api-key` header, or
 * with another key than `apiKey`, get 401 as Azure answers them. Pass `${baseUrl}/openai/v1`
 * as AZURE_BASE_URL.
 */
export async function startFakeAzureOpenAi(
  script: FakeChatScript,
  apiKey: string,
): Promise<FakeChatProvider> {
  return startFake('/openai/v1/responses', script, {
    errorBody: (turn) => ({ error: { code: String(turn.status), message: turn.message } }),
    answer(turn, body) {
      const response = responseOf(turn, String(body.model));
      if (body.stream !== true) return { kind: 'json', body: response };
      return { kind: 'text', contentType: 'text/event-stream', body: events(turn, response) };
    },
    check: (request) =>
      request.headers['api-key'] === apiKey
        ? undefined
        : {
            kind: 'json',
            status: 401,
            body: {
              error: {
                code: '401',
                message:
                  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
              },
            },
          },
  });
}

function outputItem(turn: FakeAnswerTurn): Record<string, unknown> {
  return turn.kind === 'text'
    ? {
        type: 'message',
        id: 'msg_fake_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      }
    : {
        type: 'function_call',
        id: 'fc_fake_1',
        call_id: 'call_fake_1',
        name: turn.name,
        arguments: JSON.stringify(turn.input),
        status: 'completed',
      };
}

function responseOf(turn: FakeAnswerTurn, model: string): Record<string, unknown> {
  return {
    id: 'resp_fake_1',
    object: 'response',
    created_at: 1_795_000_000,
    status: 'completed',
    model,
    output: [outputItem(turn)],
    incomplete_details: null,
    error: null,
    usage: {
      input_tokens: 24,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 36,
    },
  };
}

function events(turn: FakeAnswerTurn, response: Record<string, unknown>): string {
  const item = outputItem(turn);
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  const list: Array<Record<string, unknown>> = [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
  ];
  if (turn.kind === 'text') {
    list.push(
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, status: 'in_progress', content: [] },
      },
      {
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      ...words(turn.text).map((delta) => ({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta,
      })),
      {
        type: 'response.output_text.done',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        text: turn.text,
      },
    );
  } else {
    const json = String(item.arguments);
    const middle = Math.ceil(json.length / 2);
    list.push(
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...item, arguments: '', status: 'in_progress' },
      },
      ...[json.slice(0, middle), json.slice(middle)].map((delta) => ({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: 0,
        delta,
      })),
      {
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: 0,
        arguments: json,
      },
    );
  }
  list.push(
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response },
  );
  return list
    .map(
      (event, index) =>
        `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
    )
    .join('');
}

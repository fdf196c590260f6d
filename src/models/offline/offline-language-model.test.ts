import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { readModelConfig } from '../model-config.ts';
import { resolveModel } from '../resolve-model.ts';
import type { ChatMessage, ModelTool } from '../types.ts';
import { longTermProfileHeading } from './names.ts';

const model = resolveModel(readModelConfig({}));
const tool = (name: string, properties: Record<string, unknown> = {}): ModelTool => ({
  name,
  description: name,
  inputSchema: { type: 'object', properties },
});
const tools = [
  tool('calculator', { expression: { type: 'string' } }),
  tool('get_current_datetime', { timeZone: { type: 'string' } }),
  tool('get_weather', { location: { type: 'string' } }),
  tool('search_wikipedia', { query: { type: 'string' } }),
];
const user = (content: string): ChatMessage => ({ role: 'user', content });

async function toolCallFor(text: string) {
  const result = await model.call({ messages: [user(text)], tools });
  assert.equal(result.text, '');
  assert.equal(result.toolCalls.length, 1, `no tool call for ${text}`);
  return result.toolCalls[0];
}

describe('offline model', () => {
  it('turns arithmetic into a calculator call, in Korean and English', async () => {
    assert.deepEqual((await toolCallFor('123 * 456 계산해줘'))?.args, { expression: '123 * 456' });
    assert.deepEqual((await toolCallFor('What is (12 + 30) / 7?'))?.args, {
      expression: '(12 + 30) / 7',
    });
    assert.deepEqual((await toolCallFor('3 곱하기 1,000은?'))?.args, { expression: '3 * 1000' });
    assert.equal((await toolCallFor('123 * 456 계산해줘'))?.name, 'calculator');
  });

  it('computes percentages with the calculator, in English and Korean', async () => {
    assert.deepEqual(await toolCallFor('What is 15% of 2400?'), {
      id: 'offline-call-1',
      name: 'calculator',
      args: { expression: '2400 * 15 / 100' },
    });
    assert.deepEqual((await toolCallFor('2400의 15%는?'))?.args, { expression: '2400 * 15 / 100' });
    assert.deepEqual((await toolCallFor('1,200의 7.5퍼센트 계산해줘'))?.args, {
      expression: '1200 * 7.5 / 100',
    });
  });

  it("calls a tool the message names, a team's own included, its first text parameter from the rest", async () => {
    const own = [
      ...tools,
      {
        name: 'order_status',
        description: 'Looks up an order',
        inputSchema: {
          type: 'object',
          properties: { orderId: { type: 'string' }, verbose: { type: 'boolean' } },
          required: ['orderId'],
        },
      },
      {
        name: 'refund',
        description: 'Refunds an order',
        inputSchema: {
          type: 'object',
          properties: { orderId: { type: 'string' }, amount: { type: 'number' } },
          required: ['orderId', 'amount'],
        },
      },
    ];
    const call = async (text: string) =>
      (await model.call({ messages: [user(text)], tools: own })).toolCalls[0];
    assert.deepEqual(await call('order_status A-1'), {
      id: 'offline-call-1',
      name: 'order_status',
      args: { orderId: 'A-1' },
    });
    assert.deepEqual((await call('A-1 order_status 조회해줘'))?.args, { orderId: 'A-1' });
    assert.deepEqual((await call('refund B-7 amount=12.5'))?.args, {
      orderId: 'B-7',
      amount: 12.5,
    });
    const missing = await model.call({ messages: [user('refund B-7')], tools: own });
    assert.equal(missing.toolCalls.length, 0, 'a required parameter without a value: no call');
  });

  it('writes a file with write_file when asked to, so approvals can be tried offline', async () => {
    const withWrite = [
      ...tools,
      tool('write_file', { path: { type: 'string' }, content: { type: 'string' } }),
    ];
    const call = async (text: string) =>
      (await model.call({ messages: [user(text)], tools: withWrite })).toolCalls[0];
    assert.deepEqual(await call("write 'hello' to notes.txt"), {
      id: 'offline-call-1',
      name: 'write_file',
      args: { path: 'notes.txt', content: 'hello' },
    });
    assert.deepEqual((await call('save the plan into docs/plan.md'))?.args, {
      path: 'docs/plan.md',
      content: 'the plan',
    });
    assert.deepEqual((await call('notes.txt에 안녕 저장해줘'))?.args, {
      path: 'notes.txt',
      content: '안녕',
    });
  });

  it('sends an unusable expression to the calculator as asked, so its error flows back', async () => {
    assert.deepEqual(await toolCallFor('계산해줘: abc'), {
      id: 'offline-call-1',
      name: 'calculator',
      args: { expression: 'abc' },
    });
  });

  it('reads what a Korean request asks to calculate, full-width digits and formulas included', async () => {
    assert.deepEqual((await toolCallFor('abc 계산해줘'))?.args, { expression: 'abc' });
    assert.deepEqual((await toolCallFor('１２３ ＊ ４５６ 계산해줘'))?.args, {
      expression: '123 * 456',
    });
    assert.deepEqual((await toolCallFor('sum(ones(3,000,3,000))'))?.args, {
      expression: 'sum(ones(3000,3000))',
    });
  });

  it('asks for the date only when the question is about the date, not about a number of days', async () => {
    assert.equal((await toolCallFor('오늘 며칠이야?'))?.name, 'get_current_datetime');
    const hours = await model.call({
      messages: [user('방문객은 주차를 몇 시간 할 수 있어?')],
      tools,
    });
    assert.equal(hours.toolCalls.length, 0, 'a duration is not a question about the clock');
    const days = await model.call({ messages: [user('연차는 며칠이야?')], tools });
    assert.deepEqual(days.toolCalls, [], 'how many days is not a date question');
  });

  it('turns log questions into query_logs calls with what they name', async () => {
    const withLogs = [...tools, tool('query_logs', { service: { type: 'string' } })];
    const logCall = async (text: string) =>
      (await model.call({ messages: [user(text)], tools: withLogs })).toolCalls[0];
    assert.deepEqual(await logCall('payment-service에서 500 에러 로그 보여줘'), {
      id: 'offline-call-1',
      name: 'query_logs',
      args: { service: 'payment-service', status: 500 },
    });
    assert.deepEqual((await logCall('order-service 에러 몇 건이야?'))?.args, {
      service: 'order-service',
      level: 'error',
    });
    assert.deepEqual((await logCall('card-gateway 로그에서 timeout 찾아줘'))?.args, {
      service: 'card-gateway',
      contains: 'timeout',
    });
    assert.deepEqual(
      (await logCall('How many errors did order-service log in the last 2 hours?'))?.args,
      {
        service: 'order-service',
        level: 'error',
        since: '2h',
      },
    );
    assert.deepEqual((await logCall('show 5xx logs of payment-service'))?.args, {
      service: 'payment-service',
      status: '5xx',
    });
  });

  it('states the count the log tool computed first, then quotes the newest events', async () => {
    const result = {
      count: 17,
      events: [
        {
          timestamp: '2025-03-14T05:07:38Z',
          service: 'payment-service',
          level: 'error',
          status: 500,
          message: 'card-gateway timed out',
        },
        {
          timestamp: '2025-03-14T05:07:08Z',
          service: 'payment-service',
          level: 'error',
          status: 500,
          message: 'card-gateway timed out again',
        },
      ],
    };
    const messages: ChatMessage[] = [
      user('payment-service에서 500 에러 로그 보여줘'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'l1', name: 'query_logs', args: {} }] },
      { role: 'tool', toolCallId: 'l1', name: 'query_logs', content: JSON.stringify(result) },
    ];
    const { text } = await model.call({ messages, tools });
    assert.match(text, /^조건에 맞는 로그 이벤트는 17건입니다/);
    assert.match(text, /2025-03-14T05:07:38Z payment-service ERROR 500 card-gateway timed out\n/);
  });

  it('says the date and time in words', async () => {
    const messages: ChatMessage[] = [
      user('오늘 며칠이야?'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'd1', name: 'get_current_datetime', args: {} }],
      },
      {
        role: 'tool',
        toolCallId: 'd1',
        name: 'get_current_datetime',
        content: JSON.stringify({
          timeZone: 'Asia/Seoul',
          date: '2026-11-24',
          time: '13:05:00',
          weekday: 'Tuesday',
        }),
      },
    ];
    assert.equal(
      (await model.call({ messages, tools })).text,
      '지금은 2026년 11월 24일 화요일 오후 1:05입니다 (Asia/Seoul).',
    );
  });

  it('quotes the passage a rare word points to, not the one sharing only common words', async () => {
    const system = [
      '[참고 문서]',
      '[1] 휴가 정책 — 병가',
      '병가는 연 10일까지 유급으로 쓸 수 있습니다.',
      '',
      '[2] 휴가 정책 — 경조 휴가',
      '본인 결혼 5일, 자녀 결혼 1일의 경조 휴가가 주어집니다.',
    ].join('\n');
    const { text } = await model.call({ system, messages: [user('경조 휴가는?')], tools });
    assert.match(text, /본인 결혼 5일/);
  });

  it('asks the date/time tool for time questions', async () => {
    assert.equal((await toolCallFor('지금 몇 시야?'))?.name, 'get_current_datetime');
    assert.deepEqual((await toolCallFor('What time is it in New York?'))?.args, {
      timeZone: 'America/New_York',
    });
  });

  it('asks the weather tool with the place named', async () => {
    assert.deepEqual((await toolCallFor('서울 날씨 어때?'))?.args, { location: '서울' });
    assert.deepEqual((await toolCallFor('부산의 날씨 알려줘'))?.args, { location: '부산' });
    assert.deepEqual((await toolCallFor("What's the weather in Paris today?"))?.args, {
      location: 'Paris',
    });
  });

  it('searches Wikipedia for search / 검색 / what is / 누구 questions', async () => {
    assert.deepEqual(await toolCallFor('아이유가 누구야?'), {
      id: 'offline-call-1',
      name: 'search_wikipedia',
      args: { query: '아이유' },
    });
    assert.deepEqual((await toolCallFor('양자컴퓨터 검색해줘'))?.args, { query: '양자컴퓨터' });
    assert.deepEqual((await toolCallFor('What is quantum computing?'))?.args, {
      query: 'quantum computing',
    });
  });

  it('answers from tool results with readable numbers', async () => {
    const messages: ChatMessage[] = [
      user('123 * 456 계산해줘'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'calculator', args: { expression: '123 * 456' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '123 * 456 = 56088' },
    ];
    assert.equal((await model.call({ messages, tools })).text, '123 * 456 = 56,088입니다.');
    const english = [user('what is 123*456?'), ...messages.slice(1)];
    assert.equal((await model.call({ messages: english, tools })).text, '123 * 456 = 56,088.');
  });

  it('apologises and names the problem after a tool error', async () => {
    const messages: ChatMessage[] = [
      user('계산해줘: abc'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'calculator', args: { expression: 'abc' } }],
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'calculator',
        content: 'Error: Undefined symbol abc',
        isError: true,
      },
    ];
    const { text } = await model.call({ messages, tools });
    assert.match(text, /^죄송합니다/);
    assert.match(text, /Undefined symbol abc/);
  });

  it('quotes the most relevant sentences of retrieved context', async () => {
    const system =
      '당신은 회사 도우미입니다.\n\n[참고 문서]\n[1] 휴가 정책: 연차는 15일, 병가는 10일입니다. 연차는 입사일 기준으로 발생합니다.\n[2] 2024년 팀 예산: 1억원입니다.\n[3] 사무실은 판교에 있습니다.';
    const vacation = await model.call({
      system,
      messages: [user('회사 휴가 정책이 뭐야?')],
      tools,
    });
    assert.match(vacation.text, /연차는 15일, 병가는 10일/);
    assert.doesNotMatch(vacation.text, /판교/);
    const budget = await model.call({ system, messages: [user('팀 예산이 얼마야?')], tools });
    assert.match(budget.text, /1억원/);
    const dated = await model.call({
      system: '[참고 문서]\n[1] 팀 예산 — 예산\n2024년 팀 예산: 1억원.',
      messages: [user('팀 예산이 얼마야?')],
    });
    assert.equal(
      dated.text,
      '참고 문서에 따르면: 2024년 팀 예산: 1억원.',
      'a leading year is content, not a list marker',
    );
  });

  it('greets a name it is told and recalls it later, from the conversation or the summary', async () => {
    assert.match((await model.call({ messages: [user('내 이름은 철수야')] })).text, /철수님/);
    assert.match((await model.call({ messages: [user('Hi, my name is Alice.')] })).text, /Alice/);
    const later: ChatMessage[] = [
      user('내 이름은 철수야'),
      { role: 'assistant', content: '반가워요, 철수님!' },
      user('날씨 얘기 좀 하자'),
      { role: 'assistant', content: '좋아요.' },
      user('내 이름이 뭐라고 했지?'),
    ];
    assert.equal((await model.call({ messages: later })).text, '철수님이라고 하셨어요.');
    const summary = '[이전 대화 요약]\n[대화 기록 1] 사용자: 내 이름은 영희야. 예산을 물었다.';
    assert.equal(
      (await model.call({ system: summary, messages: [user('내 이름이 뭐였지?')] })).text,
      '영희님이라고 하셨어요.',
    );
    assert.equal(
      (await model.call({ messages: [user('What is my name?')] })).text,
      "You haven't told me your name yet.",
    );
  });

  it('recalls the name from the long-term profile block, after the conversation', async () => {
    const profile = `당신은 도움이 되는 AI 어시스턴트입니다.\n\n${longTermProfileHeading}\n- team: 결제팀\n- name: 철수`;
    assert.equal(
      (await model.call({ system: profile, messages: [user('내 이름이 뭐라고 했지?')] })).text,
      '철수님이라고 하셨어요.',
    );
    const spoken = [user('내 이름은 영희야'), { role: 'assistant' as const, content: '네' }];
    assert.equal(
      (await model.call({ system: profile, messages: [...spoken, user('내 이름이 뭐였지?')] }))
        .text,
      '영희님이라고 하셨어요.',
      'the conversation wins over the profile',
    );
  });

  it('returns a valid object for a structured-output request', async () => {
    const schema = z.object({
      route: z.enum(['rag', 'agent']),
      reason: z.string(),
      score: z.number().min(0).max(1),
      checks: z.array(z.object({ passed: z.boolean() })),
    });
    const { object } = await model.generateObject(schema, {
      messages: [user('이 질문은 agent가 맡아야 해')],
    });
    assert.equal(object.route, 'agent');
    assert.equal(object.score, 1);
    assert.doesNotThrow(() => schema.parse(object));
  });

  it('summarises extractively, keeping self-introductions', async () => {
    const conversation = [
      '사용자: 내 이름은 철수야.',
      'AI: 반가워요, 철수님!',
      '사용자: 우리 팀 예산은 1억원이야.',
      'AI: 알겠습니다.',
      '사용자: 날씨가 좋네.',
      'AI: 그렇네요.',
      '사용자: 점심 뭐 먹지?',
    ].join('\n');
    const { text } = await model.call({
      system: '다음 대화를 요약하세요.',
      messages: [user(conversation)],
    });
    assert.match(text, /내 이름은 철수야/);
    assert.match(text, /1억원/);
    assert.ok(text.length < conversation.length);
  });

  it('says it is the offline model and how to configure a real one, otherwise', async () => {
    const korean = await model.call({ messages: [user('인생의 의미는 무엇일까')], tools: [] });
    assert.match(korean.text, /오프라인 모델/);
    assert.match(korean.text, /OPENAI_API_KEY/);
    const english = await model.call({ messages: [user('Write me a poem')] });
    assert.match(english.text, /offline model/);
    assert.match(english.text, /YEOUL_MODEL/);
  });

  it('does not call tools it was not offered', async () => {
    const result = await model.call({ messages: [user('123 * 456 계산해줘')] });
    assert.deepEqual(result.toolCalls, []);
    assert.match(result.text, /오프라인 모델/);
  });

  it('streams its answer in several chunks and is deterministic', async () => {
    const deltas: string[] = [];
    const first = await model.call({
      messages: [user('안녕하세요')],
      onTextDelta: (text) => deltas.push(text),
    });
    const second = await model.call({ messages: [user('안녕하세요')] });
    assert.ok(deltas.length > 3);
    assert.equal(deltas.join(''), first.text);
    assert.equal(first.text, second.text);
    assert.ok(first.usage.inputTokens > 0 && first.usage.outputTokens > 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGuardrails } from './compile-guardrails.ts';
import {
  defineGuardrail,
  deny,
  maxInputChars,
  pii,
  promptInjection,
  toolArgs,
} from './factories.ts';
import type { GuardrailsConfig } from './types.ts';

const graphs = { chatGraphs: ['chat', 'react', 'ops', 'support'], configTools: ['order_status'] };

function problems(config: unknown, environment?: string[] | 'off'): string[] {
  const compiled = compileGuardrails(config as GuardrailsConfig, {
    ...graphs,
    ...(environment ? { environment } : {}),
  });
  return compiled.ok ? [] : compiled.problems;
}

function describeOf(config: GuardrailsConfig | undefined, environment?: string[] | 'off') {
  const compiled = compileGuardrails(config, {
    ...graphs,
    ...(environment ? { environment } : {}),
  });
  if (!compiled.ok) assert.fail(compiled.problems.join('\n'));
  return compiled.suite.describe();
}

const allow = () => undefined;

describe('compileGuardrails: the lists', () => {
  it('compiles the documented example and names every chat graph’s lists in order', () => {
    const described = describeOf({
      input: [pii(), promptInjection(), deny({ words: ['기밀문서'] }), maxInputChars(8000)],
      output: [pii()],
      tools: [pii(), promptInjection(), toolArgs({ write_file: { path: '^notes/' } })],
      graphs: { react: false, support: { output: [pii({ phone: 'block' })] } },
    });
    const global = {
      input: ['pii', 'promptInjection', 'deny', 'maxInputChars'],
      output: ['pii'],
      tools: ['pii', 'promptInjection', 'toolArgs'],
    };
    assert.deepEqual(described, {
      chat: global,
      react: { input: [], output: [], tools: [] },
      ops: global,
      support: { ...global, output: ['pii'] },
    });
  });

  it('takes a bare name for the defaults and the name option', () => {
    assert.deepEqual(
      describeOf({ input: ['pii', pii({ name: 'strictPii', rrn: 'block' }), 'promptInjection'] })
        .chat,
      {
        input: ['pii', 'strictPii', 'promptInjection'],
        output: [],
        tools: [],
      },
    );
  });

  it('has no guardrails without a config', () => {
    assert.deepEqual(describeOf(undefined).chat, { input: [], output: [], tools: [] });
  });

  it('gives a graph the config does not name the global lists', () => {
    const compiled = compileGuardrails({ input: [pii()] }, graphs);
    assert.ok(compiled.ok);
    assert.deepEqual(compiled.suite.forGraph('somewhere-else').names.input, ['pii']);
    assert.equal(compiled.suite.forGraph('chat').empty, false);
  });
});

describe('compileGuardrails: YEOUL_GUARDRAILS', () => {
  const config: GuardrailsConfig = {
    input: [deny({ words: ['x'] })],
    graphs: { support: { input: [maxInputChars(10)] }, react: false },
  };

  it('replaces the global lists with the named built-ins at every stage they work on; per-graph lists still apply', () => {
    const described = describeOf(config, ['pii', 'promptInjection']);
    assert.deepEqual(described.chat, {
      input: ['pii', 'promptInjection'],
      output: ['pii'],
      tools: ['pii', 'promptInjection'],
    });
    assert.deepEqual(described.support, {
      input: ['maxInputChars'],
      output: ['pii'],
      tools: ['pii', 'promptInjection'],
    });
    assert.deepEqual(described.react, { input: [], output: [], tools: [] });
  });

  it('turns every guardrail off with off, the config’s included', () => {
    for (const lists of Object.values(describeOf(config, 'off'))) {
      assert.deepEqual(lists, { input: [], output: [], tools: [] });
    }
  });

  it('refuses an unknown name, naming the variable and the name', () => {
    assert.deepEqual(problems(undefined, ['pii', 'pi']), [
      'YEOUL_GUARDRAILS: unknown guardrail "pi"; use off or a comma list of pii, promptInjection',
    ]);
  });
});

describe('compileGuardrails: problems, each with its path', () => {
  it('says a bad action', () => {
    assert.deepEqual(problems({ input: [pii({ card: 'blocked' as never })] }), [
      'guardrails.input[0].card: one of "block", "redact", "warn", "off"',
    ]);
    assert.deepEqual(
      problems({ input: [pii({ rrn: { action: 'nope' as never, checksum: 'yes' as never } })] }),
      [
        'guardrails.input[0].rrn.action: one of "block", "redact", "warn", "off"',
        'guardrails.input[0].rrn.checksum: true or false',
      ],
    );
    assert.deepEqual(problems({ input: [promptInjection({ action: 'redact' as never })] }), [
      'guardrails.input[0].action: one of "block", "warn"',
    ]);
  });

  it('says an unknown built-in', () => {
    assert.deepEqual(problems({ output: ['pi'] }), [
      'guardrails.output[0]: unknown guardrail "pi"',
    ]);
    assert.deepEqual(problems({ output: [{ kind: 'builtin', builtin: 'piii', options: {} }] }), [
      'guardrails.output[0]: unknown guardrail "piii"',
    ]);
  });

  it('says a stage mismatch', () => {
    assert.deepEqual(problems({ output: [pii(), maxInputChars(10)] }), [
      'guardrails.output[1]: maxInputChars works on input only',
    ]);
    assert.deepEqual(problems({ output: [promptInjection()] }), [
      'guardrails.output[0]: promptInjection works on input and tools only',
    ]);
    assert.deepEqual(problems({ tools: [deny({ words: ['a'] })] }), [
      'guardrails.tools[0]: deny works on input and output only',
    ]);
    assert.deepEqual(problems({ input: [toolArgs({})] }), [
      'guardrails.input[0]: toolArgs works on tools only',
    ]);
  });

  it('says a bad pattern', () => {
    assert.deepEqual(problems({ tools: [toolArgs({ write_file: { path: '^(notes' } })] }), [
      'guardrails.tools[0].write_file.path: invalid regular expression',
    ]);
    assert.deepEqual(problems({ tools: [toolArgs({ write_file: { path: 3 as never } })] }), [
      'guardrails.tools[0].write_file.path: a RegExp or a string',
    ]);
  });

  it('says an unknown graph, and a graph that is not a chat graph', () => {
    assert.deepEqual(problems({ graphs: { nope: false } }), [
      'guardrails.graphs.nope: no chat graph "nope"',
    ]);
    assert.deepEqual(problems({ graphs: { support: { inputs: [] } as never } }), [
      'guardrails.graphs.support: unknown key "inputs"',
    ]);
    assert.deepEqual(problems({ graphs: { support: true as never } }), [
      'guardrails.graphs.support: {input?, output?, tools?} or false',
    ]);
  });

  it('says a custom guardrail in another stage’s list', () => {
    const custom = defineGuardrail({ name: 'orders', stage: 'tools', check: allow });
    assert.deepEqual(problems({ input: [custom] }), [
      'guardrails.input[0]: "orders" is a guardrail of the tools stage; list it under tools',
    ]);
    assert.deepEqual(problems({ graphs: { support: { output: [custom] } } }), [
      'guardrails.graphs.support.output[0]: "orders" is a guardrail of the tools stage; list it under tools',
    ]);
  });

  it('says a duplicate name within a stage (the same name in two stages is fine)', () => {
    assert.deepEqual(problems({ input: [pii(), 'pii'] }), [
      'guardrails.input[1]: the name "pii" is also guardrails.input[0]\'s; names are unique within a stage (give one a name option)',
    ]);
    const one = defineGuardrail({ name: 'check', stage: 'input', check: allow });
    assert.deepEqual(problems({ input: [one, deny({ words: ['a'], name: 'check' })] }).length, 1);
    assert.deepEqual(problems({ input: [pii()], output: [pii()], tools: [pii()] }), []);
  });

  it('says bad names', () => {
    assert.deepEqual(
      problems({ input: [defineGuardrail({ name: 'none', stage: 'input', check: allow })] }),
      ['guardrails.input[0].name: a name matching ^[A-Za-z][A-Za-z0-9_-]{0,63}$, not "none"'],
    );
    assert.deepEqual(problems({ input: [pii({ name: '1st' })] }), [
      'guardrails.input[0].name: a name matching ^[A-Za-z][A-Za-z0-9_-]{0,63}$, not "none"',
    ]);
    assert.deepEqual(problems({ input: [pii({ name: `a${'b'.repeat(64)}` })] }).length, 1);
  });

  it('says what is wrong with a custom guardrail and with options', () => {
    assert.deepEqual(
      problems({
        input: [
          {
            kind: 'custom',
            name: 'x',
            stage: 'inputs',
            check: 'no',
            timeoutMs: -1,
            onError: 'ignore',
          },
        ],
      }),
      [
        'guardrails.input[0].stage: one of "input", "output", "tools"',
        'guardrails.input[0].check: a function (subject, context) => verdict',
        'guardrails.input[0].timeoutMs: a positive whole number of milliseconds',
        'guardrails.input[0].onError: one of "block", "allow"',
      ],
    );
    assert.deepEqual(problems({ input: [maxInputChars(0)] }), [
      'guardrails.input[0]: maxInputChars(n) needs n, a positive whole number of characters',
    ]);
    assert.deepEqual(problems({ input: [deny({ words: [] })] }), [
      'guardrails.input[0].words: a list of at least one word',
    ]);
    assert.deepEqual(problems({ input: ['deny'] }), [
      'guardrails.input[0]: deny needs its options (call deny(…))',
    ]);
    assert.deepEqual(problems({ input: [pii({ phones: 'off' } as never)] }), [
      'guardrails.input[0]: unknown option "phones" (detectors: rrn, card, phone, email, account, ip; also restore, name)',
    ]);
    assert.deepEqual(problems({ input: [pii({ restore: { kinds: ['mail' as never] } })] }), [
      'guardrails.input[0].restore.kinds[0]: one of "rrn", "card", "phone", "email", "account", "ip"',
    ]);
    assert.deepEqual(problems({ input: [42] }), [
      "guardrails.input[0]: a guardrail: a built-in (pii(), 'pii', …) or defineGuardrail({…})",
    ]);
    assert.deepEqual(problems({ input: pii() }), ['guardrails.input: a list of guardrails']);
    assert.deepEqual(problems({ inputs: [] }), ['guardrails: unknown key "inputs"']);
    assert.deepEqual(problems('pii'), ['guardrails: an object {input?, output?, tools?, graphs?}']);
  });

  it('reports every problem at once', () => {
    assert.equal(
      problems({
        input: [maxInputChars(0), 'pi'],
        output: [maxInputChars(5)],
        graphs: { nope: false },
      }).length,
      4,
    );
  });
});

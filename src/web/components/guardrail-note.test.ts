import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guardrailText } from './guardrail-note.ts';

describe('guardrailText (English, as Node has no browser language)', () => {
  it('names the guardrail, what it acted on and the reason', () => {
    assert.equal(
      guardrailText({ name: 'pii', stage: 'input', action: 'block', reason: 'card' }),
      'Guardrail “pii” blocked your message: card',
    );
    assert.equal(
      guardrailText({ name: 'pii', stage: 'output', action: 'redact', reason: 'email' }),
      'Guardrail “pii” redacted the answer: email',
    );
    assert.equal(
      guardrailText({
        name: 'promptInjection',
        stage: 'tools',
        action: 'warn',
        reason: 'override',
        tool: 'web_search',
      }),
      'Guardrail “promptInjection” flagged the call to web_search: override',
    );
  });

  it('keeps a reason as it came, placeholders and markup included', () => {
    assert.equal(
      guardrailText({ name: 'x', stage: 'tools', action: 'block', reason: '{name} <b>$&</b>' }),
      'Guardrail “x” blocked a tool call: {name} <b>$&</b>',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes, Span } from '../core/index.ts';
import { describeModelRequest } from './model-span.ts';
import type { ModelInfo } from './types.ts';

/** The attributes a recording span is given. */
function attributesFor(info: ModelInfo): Attributes {
  const attributes: Attributes = {};
  const span = {
    isRecording: () => true,
    setAttributes(values: Attributes) {
      Object.assign(attributes, values);
      return span;
    },
  } as unknown as Span;
  describeModelRequest(span, {
    info,
    maxOutputTokens: 100,
    temperature: undefined,
    system: undefined,
    messages: [],
    streamed: false,
    outputType: 'text',
  });
  return attributes;
}

describe('model spans', () => {
  it('name the provider as the GenAI semantic conventions do', () => {
    const names = (['bedrock', 'google', 'azure', 'openai', 'compat'] as const).map(
      (provider) => attributesFor({ provider, modelId: 'm' })['gen_ai.provider.name'],
    );
    assert.deepEqual(names, ['aws.bedrock', 'gcp.gemini', 'azure.ai.openai', 'openai', 'compat']);
  });
});

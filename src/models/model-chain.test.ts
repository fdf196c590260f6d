import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelCallError } from './errors/model-call-error.ts';
import { ModelChain, type ModelLink } from './model-chain.ts';
import { OfflineLanguageModel } from './offline/offline-language-model.ts';

const choice = (modelId: string) => ({
  languageModel: new OfflineLanguageModel('rules'),
  info: { provider: 'compat', modelId },
});

function linkAt(chain: ModelChain, index: number): ModelLink {
  const link = chain.links[index];
  assert.ok(link, `the chain has a model ${index}`);
  return link;
}

const failure = (model: string) =>
  new ModelCallError({ reason: 'unavailable', status: 500, attempts: 1, detail: 'down', model });

describe('a model chain', () => {
  it('offers every model in order while none cools down', () => {
    const chain = new ModelChain([choice('a'), choice('b'), choice('c')], 1000);
    assert.deepEqual(
      chain.candidates(0).map((link) => link.name),
      ['compat:a', 'compat:b', 'compat:c'],
    );
  });

  it('skips a model for the cool-down after a call moved on from it, then offers it first again', () => {
    const chain = new ModelChain([choice('a'), choice('b'), choice('c')], 1000);
    chain.coolDown(linkAt(chain, 0), 5000);
    chain.coolDown(linkAt(chain, 1), 5500);
    assert.deepEqual(
      chain.candidates(5999).map((link) => link.name),
      ['compat:c'],
    );
    assert.deepEqual(
      chain.candidates(6000).map((link) => link.name),
      ['compat:a', 'compat:c'],
    );
    assert.deepEqual(
      chain.candidates(6500).map((link) => link.name),
      ['compat:a', 'compat:b', 'compat:c'],
    );
  });

  it('never skips the last model, nor any model with a cool-down of 0', () => {
    const chain = new ModelChain([choice('a'), choice('b')], 1000);
    chain.coolDown(linkAt(chain, 1), 0);
    assert.equal(linkAt(chain, 1).coolingDownUntil, null);
    const never = new ModelChain([choice('a'), choice('b')], 0);
    never.coolDown(linkAt(never, 0), 0);
    assert.equal(never.candidates(0).length, 2);
  });

  it('describes each model: cooling down, failing, or ok', () => {
    const chain = new ModelChain([choice('a'), choice('b'), choice('c')], 1000);
    const a = linkAt(chain, 0);
    a.health.recordFailure(failure('compat:a'));
    chain.coolDown(a, 100);
    linkAt(chain, 1).health.recordFailure(failure('compat:b'));
    const states = chain.describe(200);
    assert.deepEqual(
      states.map((state) => [state.model, state.state, state.coolingDownUntil]),
      [
        ['compat:a', 'cooling-down', 1100],
        ['compat:b', 'failing', null],
        ['compat:c', 'ok', null],
      ],
    );
    assert.equal(states[0]?.lastError?.code, 'model_unavailable');
    assert.equal('model' in (states[0]?.lastError ?? {}), false);
    assert.equal(chain.describe(1100)[0]?.state, 'failing', 'failing once the cool-down ends');
    a.health.recordSuccess('compat:a');
    chain.answered(a);
    assert.equal(chain.describe(300)[0]?.state, 'ok');
  });
});

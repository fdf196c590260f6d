import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { append, increment, replace } from './channels.ts';
import { InvalidUpdateError } from './errors/invalid-update-error.ts';
import { applyUpdate, defineState, initialState, prepareUpdate } from './state.ts';

const schema = defineState({
  route: replace<string | null>(null),
  results: append<string>(),
  iterations: increment(),
});

describe('state', () => {
  it('starts every field at its channel initial value', () => {
    assert.deepEqual(initialState(schema), { route: null, results: [], iterations: 0 });
  });

  it('applies each field through its own reducer and leaves the old state alone', () => {
    const start = initialState(schema);
    const update = prepareUpdate(schema, { route: 'rag', results: 'r1', iterations: 1 }, 'n');
    const next = applyUpdate(schema, start, update);
    assert.deepEqual(next, { route: 'rag', results: ['r1'], iterations: 1 });
    assert.deepEqual(start, { route: null, results: [], iterations: 0 });
  });

  it('ignores fields set to undefined and treats an empty update as no change', () => {
    assert.equal(prepareUpdate(schema, { route: undefined }, 'n'), undefined);
    assert.equal(prepareUpdate(schema, undefined, 'n'), undefined);
    const start = initialState(schema);
    assert.equal(applyUpdate(schema, start, undefined), start);
  });

  it('names every unknown field a node returns', () => {
    assert.throws(
      () => prepareUpdate(schema, { rout: 'x', extra: 1, route: 'ok' }, 'router'),
      (error: unknown) =>
        error instanceof InvalidUpdateError &&
        error.code === 'graph_invalid_update' &&
        error.node === 'router' &&
        error.fields.join() === 'rout,extra',
    );
  });

  it('refuses an update that is not an object', () => {
    assert.throws(() => prepareUpdate(schema, [1] as never, 'n'), InvalidUpdateError);
    assert.throws(() => prepareUpdate(schema, 'text' as never, 'n'), InvalidUpdateError);
  });

  it('skips stored fields a newer schema no longer has when replaying', () => {
    const start = initialState(schema);
    assert.deepEqual(applyUpdate(schema, start, { gone: 1, route: 'x' }), { ...start, route: 'x' });
  });
});

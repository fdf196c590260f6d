import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunSlots } from './run-slots.ts';

describe('run slots', () => {
  it('gives places at once up to the limit, then first come first served as they are given back', async () => {
    const slots = new RunSlots(2);
    const first = slots.take();
    const second = slots.take();
    assert.ok(!(first instanceof Promise) && !(second instanceof Promise));
    assert.equal(first.waited, false);
    const order: string[] = [];
    const third = slots.take();
    const fourth = slots.take();
    assert.ok(third instanceof Promise && fourth instanceof Promise);
    void third.then(() => order.push('third'));
    void fourth.then(() => order.push('fourth'));
    assert.equal(slots.waiting, 2);
    first.release();
    first.release(); // once only
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ['third']);
    assert.equal(slots.running, 2);
    second.release();
    const last = await fourth;
    assert.equal(last.waited, true);
    assert.deepEqual(order, ['third', 'fourth']);
    (await third).release();
    last.release();
    assert.equal(slots.running, 0);
    assert.equal(slots.waiting, 0);
  });

  it('drops a wait its signal aborts, the place going to the next', async () => {
    const slots = new RunSlots(1);
    const held = slots.take();
    assert.ok(!(held instanceof Promise));
    const controller = new AbortController();
    const dropped = slots.take(controller.signal);
    const next = slots.take();
    assert.ok(dropped instanceof Promise && next instanceof Promise);
    controller.abort(new Error('cancelled'));
    await assert.rejects(dropped, /cancelled/);
    assert.equal(slots.waiting, 1);
    held.release();
    (await next).release();
    assert.equal(slots.running, 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blockedPort, blockedPortReason } from './blocked-port.ts';

describe('blocked ports', () => {
  it('names the ports fetch refuses, and only on http(s) URLs with that port', () => {
    assert.equal(blockedPort('http://127.0.0.1:6000/v1'), 6000);
    assert.equal(blockedPort('https://proxy.internal:6667'), 6667);
    assert.equal(blockedPort(new URL('http://localhost:1')), 1);
    assert.equal(blockedPort('http://127.0.0.1:11434'), undefined);
    assert.equal(blockedPort('http://127.0.0.1'), undefined);
    assert.equal(blockedPort('ftp://127.0.0.1:6000'), undefined);
    assert.equal(blockedPort('not a url'), undefined);
  });

  it('agrees with what fetch itself refuses', async () => {
    for (const port of [1, 6000, 6665, 6669, 10080]) {
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`), (error: Error) => {
        assert.equal((error.cause as Error).message, 'bad port');
        return true;
      });
      assert.equal(blockedPort(`http://127.0.0.1:${port}/`), port);
    }
  });

  it('says which port and what to do', () => {
    assert.match(blockedPortReason(6000), /port 6000 is blocked by fetch.*choose another port/);
  });
});

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

// The browser's session storage, as the page has it.
const stored = new Map<string, string>();
Object.defineProperty(globalThis, 'sessionStorage', {
  configurable: true,
  value: {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => stored.set(key, value),
    removeItem: (key: string) => stored.delete(key),
  },
});
const { apiKey, onUnauthorized, reportUnauthorized, setApiKey } = await import('./api-client.ts');

describe('the console’s API key', () => {
  let asked = 0;
  onUnauthorized(() => {
    asked += 1;
  });
  beforeEach(() => {
    asked = 0;
    setApiKey('new-key');
  });

  it('forgets the key a request carried when the server refuses it, and asks again', () => {
    reportUnauthorized('new-key');
    assert.equal(apiKey(), null);
    assert.equal(asked, 1);
  });

  it('keeps a key given after the refused request was sent (a late 401 of an older key)', () => {
    reportUnauthorized('wrong-key');
    reportUnauthorized(null);
    assert.equal(apiKey(), 'new-key');
    assert.equal(asked, 0);
  });
});

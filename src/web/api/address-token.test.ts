import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AddressBar, takeAddressToken } from './address-token.ts';

/** An address bar at `href` that records what replaced it. */
function addressBar(href: string) {
  const replaced: string[] = [];
  const bar: AddressBar = {
    location: { href },
    history: { state: { kept: true }, replaceState: (_state, _unused, url) => replaced.push(url) },
  };
  return { bar, replaced };
}

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl-_x';

describe('a token in the console’s address', () => {
  it('takes /#token=… and leaves the address without a fragment', () => {
    const { bar, replaced } = addressBar(`https://yeoul.example/#token=${jwt}`);
    assert.equal(takeAddressToken(bar), jwt);
    assert.deepEqual(replaced, ['https://yeoul.example/']);
  });

  it('keeps the path, the query and the fragment’s other parts', () => {
    const { bar, replaced } = addressBar(`http://127.0.0.1:8787/?lang=ko#view=docs&token=${jwt}&x`);
    assert.equal(takeAddressToken(bar), jwt);
    assert.deepEqual(replaced, ['http://127.0.0.1:8787/?lang=ko#view=docs&x']);
  });

  it('decodes percent escapes but keeps a plus sign (a key may hold one)', () => {
    const { bar } = addressBar('https://yeoul.example/#token=key%2Fwith+plus%3D');
    assert.equal(takeAddressToken(bar), 'key/with+plus=');
  });

  it('keeps a token whose escapes are broken as it was written', () => {
    const { bar } = addressBar('https://yeoul.example/#token=abc%zz');
    assert.equal(takeAddressToken(bar), 'abc%zz');
  });

  it('cleans the address of an empty token and takes nothing', () => {
    const { bar, replaced } = addressBar('https://yeoul.example/#token=');
    assert.equal(takeAddressToken(bar), null);
    assert.deepEqual(replaced, ['https://yeoul.example/']);
  });

  it('leaves an address without a token as it is', () => {
    for (const href of [
      'https://yeoul.example/',
      'https://yeoul.example/#view=docs',
      'https://yeoul.example/#tokens',
    ]) {
      const { bar, replaced } = addressBar(href);
      assert.equal(takeAddressToken(bar), null);
      assert.deepEqual(replaced, []);
    }
  });

  it('passes the history entry’s state on unchanged', () => {
    let passed: unknown;
    const bar: AddressBar = {
      location: { href: `https://yeoul.example/#token=${jwt}` },
      history: {
        state: { scroll: 3 },
        replaceState: (state) => {
          passed = state;
        },
      },
    };
    takeAddressToken(bar);
    assert.deepEqual(passed, { scroll: 3 });
  });
});

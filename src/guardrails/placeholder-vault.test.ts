import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlaceholderVault } from './placeholder-vault.ts';

describe('PlaceholderVault', () => {
  it('numbers each kind on its own, the same value always the same placeholder', () => {
    const vault = new PlaceholderVault();
    assert.equal(vault.placeholderFor('email', 'a@x.com'), '[EMAIL_1]');
    assert.equal(vault.placeholderFor('phone', '010-1234-5678'), '[PHONE_1]');
    assert.equal(vault.placeholderFor('email', 'b@x.com'), '[EMAIL_2]');
    assert.equal(vault.placeholderFor('email', 'a@x.com'), '[EMAIL_1]');
    assert.equal(vault.placeholderFor('phone', '010-9999-8888'), '[PHONE_2]');
  });

  it('restores every placeholder it holds, and leaves others', () => {
    const vault = new PlaceholderVault();
    vault.placeholderFor('email', 'a@x.com');
    vault.placeholderFor('phone', '010-1234-5678');
    assert.equal(
      vault.restore(
        '[EMAIL_1]로 보내고 [PHONE_1]로 전화, [EMAIL_9]와 [CARD]는 그대로, [EMAIL_1] 다시',
      ),
      'a@x.com로 보내고 010-1234-5678로 전화, [EMAIL_9]와 [CARD]는 그대로, a@x.com 다시',
    );
  });

  it('restores strings at any depth, copying, and leaves other values', () => {
    const vault = new PlaceholderVault();
    vault.placeholderFor('email', 'a@x.com');
    const args = {
      to: '[EMAIL_1]',
      cc: ['[EMAIL_1]', 3],
      nested: { body: 'hi [EMAIL_1]', at: null },
      when: new Date(0),
    };
    const restored = vault.restoreDeep(args);
    assert.deepEqual(restored, {
      to: 'a@x.com',
      cc: ['a@x.com', 3],
      nested: { body: 'hi a@x.com', at: null },
      when: new Date(0),
    });
    assert.equal(args.to, '[EMAIL_1]');
    assert.equal(restored.when, args.when);
  });

  it('continues the numbering of stored entries and hands out only new ones', () => {
    const vault = new PlaceholderVault([
      { placeholder: '[EMAIL_1]', kind: 'email', value: 'a@x.com' },
      { placeholder: '[EMAIL_3]', kind: 'email', value: 'c@x.com' },
    ]);
    assert.equal(vault.placeholderFor('email', 'c@x.com'), '[EMAIL_3]');
    assert.equal(vault.placeholderFor('email', 'd@x.com'), '[EMAIL_4]');
    assert.equal(vault.placeholderFor('phone', '02-123-4567'), '[PHONE_1]');
    assert.deepEqual(vault.takeAdded(), [
      { placeholder: '[EMAIL_4]', kind: 'email', value: 'd@x.com' },
      { placeholder: '[PHONE_1]', kind: 'phone', value: '02-123-4567' },
    ]);
    assert.deepEqual(vault.takeAdded(), []);
    assert.equal(vault.restore('[EMAIL_1] [EMAIL_3] [EMAIL_4]'), 'a@x.com c@x.com d@x.com');
  });

  it('returns text untouched when it holds nothing', () => {
    const vault = new PlaceholderVault();
    const value = { a: '[EMAIL_1]' };
    assert.equal(vault.restore('[EMAIL_1]'), '[EMAIL_1]');
    assert.equal(vault.restoreDeep(value), value);
  });
});

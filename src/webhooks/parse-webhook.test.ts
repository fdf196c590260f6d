import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWebhook, type WebhookSettings } from './parse-webhook.ts';
import { parseHostEntry, type WebhookHostEntry } from './webhook-hosts.ts';

const secret = 'a-secret-of-32-characters-or-so!';
const publicResolver = async (name: string) =>
  name === 'rebind.example.com'
    ? ['93.184.216.34', '10.0.0.5']
    : ['93.184.216.34', '2606:2800:220:1::1'];
const open: WebhookSettings = { secret, resolve: publicResolver };

function hosts(...texts: string[]): WebhookHostEntry[] {
  return texts.map((text) => {
    const entry = parseHostEntry(text);
    assert.ok(entry, `${text} should be a host entry`);
    return entry;
  });
}

async function codeOf(value: unknown, settings: WebhookSettings = open): Promise<string> {
  const parsed = await parseWebhook(value, settings);
  return 'code' in parsed ? parsed.code : 'ok';
}

describe('parseWebhook', () => {
  it('normalises a URL or {url, headers} and lower-cases header names', async () => {
    assert.deepEqual(await parseWebhook('https://Hooks.Example.com/a?b=1', open), {
      url: 'https://hooks.example.com/a?b=1',
      headers: {},
    });
    assert.deepEqual(
      await parseWebhook({ url: 'http://hooks.example.com', headers: { 'X-Token': 't' } }, open),
      { url: 'http://hooks.example.com/', headers: { 'x-token': 't' } },
    );
  });

  it('refuses a bad shape with invalid_webhook', async () => {
    const bad: unknown[] = [
      42,
      null,
      ['https://a.example'],
      'not a url',
      'ftp://hooks.example.com/',
      'https://user:pass@hooks.example.com/',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
      { url: 'https://hooks.example.com', extra: 1 },
      { url: 7 },
      { url: 'https://hooks.example.com', headers: [] },
      { url: 'https://hooks.example.com', headers: { Host: 'x' } },
      { url: 'https://hooks.example.com', headers: { 'content-type': 'x' } },
      { url: 'https://hooks.example.com', headers: { 'Content-Length': '1' } },
      { url: 'https://hooks.example.com', headers: { 'X-Yeoul-Event': 'x' } },
      { url: 'https://hooks.example.com', headers: { 'bad name': 'x' } },
      { url: 'https://hooks.example.com', headers: { [`x${'a'.repeat(64)}`]: 'x' } },
      { url: 'https://hooks.example.com', headers: { a: 'x'.repeat(1025) } },
      { url: 'https://hooks.example.com', headers: { a: 1 } },
      { url: 'https://hooks.example.com', headers: { a: 'x\r\ny: z' } },
      { url: 'https://hooks.example.com', headers: { a: '여울' } },
      { url: 'https://hooks.example.com', headers: { a: '1', A: '2' } },
      {
        url: 'https://hooks.example.com',
        headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`h${i}`, 'v'])),
      },
    ];
    for (const value of bad)
      assert.equal(await codeOf(value), 'invalid_webhook', JSON.stringify(value));
    assert.equal(
      await codeOf({
        url: 'https://hooks.example.com',
        headers: Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [`h${i}`, 'v'.repeat(1024)]),
        ),
      }),
      'ok',
    );
  });

  it('refuses every webhook without a secret', async () => {
    assert.equal(
      await codeOf('https://hooks.example.com/', { resolve: publicResolver }),
      'webhook_secret_missing',
    );
  });

  it('refuses loopback, private, link-local and special addresses when no allow-list is set', async () => {
    const refused = [
      'http://localhost:8080/',
      'http://api.localhost/',
      'http://127.0.0.1/',
      'http://127.1.2.3/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::]/',
      'http://0.0.0.0/',
      'http://0/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://169.254.169.254/',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://[ff02::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://rebind.example.com/',
    ];
    for (const url of refused) {
      const parsed = await parseWebhook(url, open);
      assert.ok('code' in parsed && parsed.code === 'webhook_host_not_allowed', url);
      assert.match(parsed.message, /webhook host \S+ is not allowed/);
    }
    for (const url of [
      'http://93.184.216.34/',
      'https://hooks.example.com/',
      'http://172.32.0.1/',
    ]) {
      assert.equal(await codeOf(url), 'ok', url);
    }
  });

  it('refuses a name that resolves to a private address, or does not resolve', async () => {
    const resolve = async (name: string) => {
      if (name === 'inside.example.com') return ['192.168.0.10'];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const inside = await parseWebhook('https://inside.example.com/', { secret, resolve });
    assert.deepEqual(inside, {
      code: 'webhook_host_not_allowed',
      message:
        'webhook host inside.example.com is not allowed: it resolves to 192.168.0.10, not a public address',
    });
    assert.equal(
      await codeOf('https://nowhere.example.com/', { secret, resolve }),
      'webhook_host_not_allowed',
    );
  });

  it('with an allow-list, takes only the listed hosts, addresses in any spelling, and ports', async () => {
    const listed: WebhookSettings = {
      secret,
      resolve: async () => ['127.0.0.1'],
      hosts: hosts(
        '127.0.0.1:9000',
        'hooks.example.com',
        '*.corp.example',
        '10.0.0.0/8',
        '[::1]:8080',
        '0x7f.2',
      ),
    };
    const allowed = [
      'http://127.0.0.1:9000/',
      'http://2130706433:9000/',
      'http://0x7f.1:9000/',
      'http://[::ffff:127.0.0.1]:9000/',
      'https://hooks.example.com/',
      'http://hooks.example.com:1234/',
      'https://a.corp.example/',
      'https://a.b.corp.example/',
      'http://10.200.3.4/',
      'http://012.1.2.3/',
      'http://[::1]:8080/',
      'http://127.0.0.2/',
    ];
    for (const url of allowed) assert.equal(await codeOf(url, listed), 'ok', url);
    const refused = [
      'http://127.0.0.1:9001/',
      'http://127.0.0.1/',
      'http://localhost:9000/',
      'https://corp.example/',
      'https://other.example.com/',
      'http://11.0.0.1/',
      'http://[::1]:8081/',
      'https://hooks.example.com.evil.example/',
    ];
    for (const url of refused)
      assert.equal(await codeOf(url, listed), 'webhook_host_not_allowed', url);
  });
});

describe('parseHostEntry', () => {
  it('reads names, patterns, addresses and ranges in any spelling, with ports', () => {
    assert.deepEqual(parseHostEntry('Hooks.Example.com:443'), {
      kind: 'name',
      name: 'hooks.example.com',
      port: 443,
    });
    assert.deepEqual(parseHostEntry('*.example.com'), {
      kind: 'subdomains',
      domain: 'example.com',
    });
    for (const text of [
      '127.0.0.1',
      '2130706433',
      '0x7f.1',
      '0x7f000001',
      '[::ffff:127.0.0.1]',
      '::ffff:7f00:1',
    ]) {
      const entry = parseHostEntry(text);
      assert.ok(entry?.kind === 'range', text);
      assert.equal(entry.address.toString(), '127.0.0.1', text);
      assert.equal(entry.prefixLength, 32, text);
    }
    const range = parseHostEntry('[fc00::]/7:8443');
    assert.ok(range?.kind === 'range');
    assert.equal(range.prefixLength, 7);
    assert.equal(range.port, 8443);
    assert.equal(parseHostEntry('fe80::/10')?.kind, 'range');
    assert.equal(parseHostEntry('192.168.0.0/16:80')?.port, 80);
  });

  it('refuses what is no host, pattern, address or range', () => {
    for (const text of [
      '',
      'http://x',
      'a b',
      '10.0.0.0/33',
      '::/129',
      'host:0',
      'host:70000',
      'host:x',
      '*.',
      '*',
      'a/b',
      '999.1.1.1',
      'user@host',
    ]) {
      assert.equal(parseHostEntry(text), undefined, text);
    }
  });
});

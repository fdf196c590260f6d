import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeOpenSearch, startFakeOpenSearch } from './fake-opensearch.ts';

let fake: FakeOpenSearch;
before(async () => {
  fake = await startFakeOpenSearch();
});
after(() => fake.close());

const call = async (method: string, path: string, body?: unknown, ndjson = false) => {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
};
const ndjson = (lines: unknown[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
const mappings = {
  dynamic: 'strict',
  properties: {
    title: { type: 'text', analyzer: 'standard' },
    body: { type: 'text', analyzer: 'standard' },
    tag: { type: 'keyword' },
  },
};
let counter = 0;
const newIndex = async () => {
  counter += 1;
  const name = `fake-${counter}`;
  assert.equal((await call('PUT', `/${name}`, { mappings })).status, 200);
  return name;
};
const put = (index: string, documents: Array<[string, Record<string, unknown>]>) =>
  call(
    'POST',
    `/${index}/_bulk?refresh=true`,
    ndjson(documents.flatMap(([id, source]) => [{ index: { _id: id } }, source])),
    true,
  );
const ids = (response: { body: { hits: { hits: Array<{ _id: string }> } } }) =>
  response.body.hits.hits.map((hit) => hit._id);
const bm25 = (fields: string[], query: string) => ({
  query: { multi_match: { query, type: 'most_fields', fields } },
});

describe('fake OpenSearch', () => {
  it('answers OpenSearch error bodies for a missing index and an existing one', async () => {
    const missing = await call('POST', '/nowhere/_search', { query: { match_all: {} } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    assert.equal(missing.body.error.root_cause[0].type, 'index_not_found_exception');
    assert.equal(missing.body.status, 404);
    const name = await newIndex();
    const again = await call('PUT', `/${name}`, { mappings });
    assert.equal(again.status, 400);
    assert.equal(again.body.error.type, 'resource_already_exists_exception');
  });

  it('refuses with a 400 every request shape it does not implement', async () => {
    const name = await newIndex();
    const refusals = [
      await call('POST', `/${name}/_search?explain=true`, {}),
      await call('POST', `/${name}/_search`, { query: { match: { body: 'x' } } }),
      await call('POST', `/${name}/_search`, bm25(['body'], 'x'), undefined),
      await call('POST', `/${name}/_search`, {
        query: { multi_match: { query: 'x', fields: ['body'] } },
      }),
      await call('POST', `/${name}/_search`, { sort: ['_score'], query: { match_all: {} } }),
      await call('POST', `/${name}/_search`, { query: { term: { tag: 'a' } } }),
      await call('PUT', '/other', { settings: { 'index.refresh_interval': '1s' } }),
      await call('PUT', '/other', { mappings: { properties: { v: { type: 'dense_vector' } } } }),
      await call('GET', '/_nodes/stats'),
      await call('POST', `/${name}/_bulk`, ndjson([{ update: { _id: '1' } }, { doc: {} }]), true),
      await call('POST', `/${name}/_bulk`, JSON.stringify({ index: { _id: '1' } }), true),
    ];
    assert.deepEqual(
      refusals.map((response) => response.status),
      [400, 400, 200, 400, 400, 400, 400, 400, 400, 400, 400],
    );
    for (const refused of refusals.filter((response) => response.status === 400))
      assert.ok(refused.body.error.type, JSON.stringify(refused.body));
  });

  it('reports per-item results in _bulk: strict mappings, external versions, injected failures', async () => {
    const name = await newIndex();
    fake.failBulkItems({ match: (item) => item.id === 'rejected' });
    const response = await call(
      'POST',
      `/${name}/_bulk`,
      ndjson([
        { index: { _id: 'ok', version: 5, version_type: 'external' } },
        { title: 'fine' },
        { index: { _id: 'ok', version: 4, version_type: 'external' } },
        { title: 'older' },
        { index: { _id: 'strict' } },
        { unknown: 'field' },
        { index: { _id: 'rejected' } },
        { title: 'busy' },
        { delete: { _id: 'never' } },
      ]),
      true,
    );
    assert.equal(response.body.errors, true);
    assert.deepEqual(
      response.body.items.map(
        (item: Record<string, { status: number; error?: { type: string } }>) => {
          const result = Object.values(item)[0];
          return [result?.status, result?.error?.type];
        },
      ),
      [
        [201, undefined],
        [409, 'version_conflict_engine_exception'],
        [400, 'strict_dynamic_mapping_exception'],
        [429, 'es_rejected_execution_exception'],
        [404, undefined],
      ],
    );
  });

  it('makes writes searchable only after a refresh, as OpenSearch does', async () => {
    const name = await newIndex();
    await call(
      'POST',
      `/${name}/_bulk`,
      ndjson([{ index: { _id: 'a' } }, { body: 'hidden' }]),
      true,
    );
    assert.deepEqual(ids(await call('POST', `/${name}/_search`, bm25(['body'], 'hidden'))), []);
    await call('POST', `/${name}/_refresh`);
    assert.deepEqual(ids(await call('POST', `/${name}/_search`, bm25(['body'], 'hidden'))), ['a']);
  });

  it('ranks by BM25: more occurrences, shorter fields and rarer terms first; boosts multiply', async () => {
    const name = await newIndex();
    await put(name, [
      ['twice', { title: 'one', body: 'alpha alpha beta gamma' }],
      ['once', { title: 'two', body: 'alpha beta gamma delta' }],
      ['short', { title: 'three', body: 'alpha' }],
      ['rare', { title: 'four', body: 'zeta filler filler filler' }],
      ['titled', { title: 'alpha', body: 'filler filler filler filler' }],
    ]);
    assert.deepEqual(ids(await call('POST', `/${name}/_search`, bm25(['body'], 'alpha'))), [
      'short',
      'twice',
      'once',
    ]);
    assert.equal(
      ids(await call('POST', `/${name}/_search`, bm25(['body'], 'alpha zeta')))[0],
      'rare',
    );
    const scoreOf = async (fields: string[]) => {
      const response = await call('POST', `/${name}/_search`, bm25(fields, 'alpha'));
      const hits = response.body.hits.hits as Array<{ _id: string; _score: number }>;
      return hits.find((hit) => hit._id === 'titled')?._score ?? 0;
    };
    const plain = await scoreOf(['title', 'body']);
    assert.ok(plain > 0);
    assert.ok(Math.abs((await scoreOf(['title^2', 'body'])) - 2 * plain) < 1e-9);
  });

  it('deletes by query what a search sees, through an alias', async () => {
    const name = await newIndex();
    await call('POST', '/_aliases', {
      actions: [{ add: { index: name, alias: `${name}-alias` } }],
    });
    await put(name, [
      ['a', { tag: 'x', body: 'one' }],
      ['b', { tag: 'y', body: 'two' }],
    ]);
    const deleted = await call('POST', `/${name}-alias/_delete_by_query?refresh=true`, {
      query: { bool: { filter: [{ term: { tag: 'x' } }] } },
    });
    assert.equal(deleted.body.deleted, 1);
    assert.deepEqual(ids(await call('POST', `/${name}-alias/_search`, { query: { bool: {} } })), [
      'b',
    ]);
  });

  it('goes down and comes back on the same port with its data, and reports red health', async () => {
    const name = await newIndex();
    await fake.stop();
    await assert.rejects(fetch(`${fake.url}/_cluster/health`));
    await fake.start();
    assert.equal((await call('GET', `/${name}`)).status, 200);
    fake.setHealth('red');
    assert.equal((await call('GET', `/_cluster/health/${name}`)).body.status, 'red');
    const search = await call('POST', `/${name}/_search`, { query: { bool: {} } });
    assert.equal(search.status, 503);
    assert.equal(search.body.error.type, 'search_phase_execution_exception');
    fake.setHealth('green');
    assert.equal((await call('GET', '/_cluster/health/missing')).status, 408);
  });
});

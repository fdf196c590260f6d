import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutBlankValues } from '../../core/index.ts';
import { knowledgeVariables } from '../knowledge-variables.ts';
import { readSearchSettings } from './search-settings.ts';

describe('YEOUL_SEARCH_URL', () => {
  it('is unset (the store’s own index) when empty or missing', () => {
    assert.equal(readSearchSettings({}), undefined);
    // Read as the process reads its environment: an empty value counts as unset.
    const blank = knowledgeVariables.parse(withoutBlankValues({ YEOUL_SEARCH_URL: ' ' }));
    assert.equal(readSearchSettings(blank), undefined);
  });

  it('reads the node, the index and the credentials from the URL, keeping TLS as written', () => {
    assert.deepEqual(
      readSearchSettings({
        YEOUL_SEARCH_URL:
          'opensearch:https://ad%40min:s3cr%3At@search.internal:9200/?index=team-kb',
      }),
      {
        node: 'https://search.internal:9200',
        auth: { username: 'ad@min', password: 's3cr:t' },
        index: 'team-kb',
      },
    );
  });

  it('takes credentials from OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD when the URL has none', () => {
    const settings = readSearchSettings({
      YEOUL_SEARCH_URL: 'opensearch:http://localhost:9200',
      OPENSEARCH_USERNAME: 'yeoul',
      OPENSEARCH_PASSWORD: 'pw',
    });
    assert.deepEqual(settings, {
      node: 'http://localhost:9200',
      auth: { username: 'yeoul', password: 'pw' },
      index: 'yeoul-knowledge',
    });
  });

  it('reports every problem at once, in words a user can act on', () => {
    assert.throws(() => readSearchSettings({ YEOUL_SEARCH_URL: 'elasticsearch:http://x:9200' }), {
      code: 'search_config_invalid',
      message: /must be opensearch:URL/,
    });
    assert.throws(
      () =>
        readSearchSettings({
          YEOUL_SEARCH_URL: 'opensearch:ftp://x?index=Bad&shards=2',
          OPENSEARCH_USERNAME: 'only-a-user',
        }),
      (error: Error & { problems?: string[] }) => error.problems?.length === 4,
    );
  });
});

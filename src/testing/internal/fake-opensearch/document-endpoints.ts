import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';
import type { FakeIndex, WriteResult } from './fake-index.ts';

/** What the document endpoints need of the cluster. */
export interface DocumentCluster {
  /** The indexes a name resolves to (an index, or an alias's targets); none when unknown. */
  resolve(name: string): FakeIndex[];
  isAlias(name: string): boolean;
  health: 'green' | 'yellow' | 'red';
  /** A per-item failure injected by a test, or undefined. */
  injectedFailure(item: BulkItem): FakeOpenSearchError | undefined;
}

/** One action of a `_bulk` request, as tests see it when injecting failures. */
export interface BulkItem {
  action: 'index' | 'delete';
  index: string;
  id: string;
  source: Record<string, unknown> | undefined;
}

const shards = { total: 2, successful: 1, failed: 0 };

/** The single index a search or write goes to; 404 when the name is unknown. */
function targetsOf(cluster: DocumentCluster, name: string): FakeIndex[] {
  if (name.includes(',') || name.includes('*'))
    throw FakeOpenSearchError.unsupported('index lists and patterns');
  const indexes = cluster.resolve(name);
  if (indexes.length === 0) throw FakeOpenSearchError.indexNotFound(name);
  return indexes;
}

/**
 * `_bulk`: NDJSON action and source lines; every item gets its own result (a refused item
 * does not fail the request). `refresh` true or wait_for makes the writes searchable.
 */
export function bulk(
  cluster: DocumentCluster,
  path: string | undefined,
  body: string,
  query: URLSearchParams,
) {
  if (!body.endsWith('\n'))
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      'The bulk request must be terminated by a newline [\\n]',
    );
  const lines = body.split('\n').slice(0, -1);
  const requireAlias = query.get('require_alias') === 'true';
  const touched = new Set<FakeIndex>();
  const items: Array<Record<string, unknown>> = [];
  for (let position = 0; position < lines.length; position += 1) {
    const [action, meta] =
      Object.entries(JSON.parse(lines[position] as string) as Record<string, unknown>)[0] ?? [];
    if (action !== 'index' && action !== 'delete')
      throw FakeOpenSearchError.unsupported(`bulk action [${String(action)}]`);
    const metadata = allowKeys(
      meta,
      ['_index', '_id', 'version', 'version_type'],
      `action line [${position + 1}]`,
    );
    const source =
      action === 'delete'
        ? undefined
        : (JSON.parse(lines[++position] ?? 'null') as Record<string, unknown>);
    const name = String(metadata._index ?? path ?? '');
    const id = metadata._id === undefined ? undefined : String(metadata._id);
    if (id === undefined) throw FakeOpenSearchError.unsupported('bulk actions without _id');
    const external = metadata.version_type === 'external';
    if (metadata.version_type !== undefined && !external)
      throw FakeOpenSearchError.unsupported(`version_type [${String(metadata.version_type)}]`);
    if (external !== (metadata.version !== undefined))
      throw FakeOpenSearchError.unsupported('version without version_type external');
    let result: WriteResult;
    let index: FakeIndex | undefined;
    try {
      index = writeTarget(cluster, name, requireAlias);
      const injected = cluster.injectedFailure({ action, index: index.name, id, source });
      if (injected) throw injected;
      if (cluster.health === 'red')
        throw new FakeOpenSearchError(
          503,
          'unavailable_shards_exception',
          `[${index.name}][0] primary shard is not active Timeout: [1m]`,
        );
      result =
        action === 'delete'
          ? index.remove(id)
          : index.put(id, source ?? {}, metadata.version as number | undefined, external);
      touched.add(index);
    } catch (error) {
      if (!(error instanceof FakeOpenSearchError)) throw error;
      items.push({
        [action]: {
          _index: index?.name ?? name,
          _id: id,
          status: error.status,
          error: { ...error.errorObject(), root_cause: undefined },
        },
      });
      continue;
    }
    items.push({
      [action]: {
        _index: index.name,
        _id: id,
        _version: result.version,
        result: result.result,
        _shards: shards,
        _seq_no: position,
        _primary_term: 1,
        status: result.status,
      },
    });
  }
  const refresh = query.get('refresh');
  if (refresh === 'true' || refresh === '' || refresh === 'wait_for')
    for (const index of touched) index.refresh();
  const errors = items.some((item) => 'error' in (Object.values(item)[0] as object));
  return { took: 1, errors, items: JSON.parse(JSON.stringify(items)) };
}

function writeTarget(cluster: DocumentCluster, name: string, requireAlias: boolean): FakeIndex {
  if (requireAlias && !cluster.isAlias(name))
    throw new FakeOpenSearchError(
      404,
      'index_not_found_exception',
      `no such index [${name}] and [require_alias] request flag is [true] and [${name}] is not an alias`,
      { index: name },
    );
  const indexes = cluster.resolve(name);
  if (indexes.length === 0)
    throw FakeOpenSearchError.unsupported(`automatic creation of index [${name}]`);
  if (indexes.length > 1)
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `no write index is defined for alias [${name}]`,
    );
  return indexes[0] as FakeIndex;
}

/** `_search`: `size`, `_source` (false or field names) and `query`; hits of all indexes behind the name. */
export function search(cluster: DocumentCluster, name: string, body: unknown) {
  const request = allowKeys(body ?? {}, ['size', '_source', 'query'], 'search request');
  const indexes = targetsOf(cluster, name);
  if (cluster.health === 'red')
    throw new FakeOpenSearchError(503, 'search_phase_execution_exception', 'all shards failed', {
      phase: 'query',
      grouped: true,
      failed_shards: [],
    });
  const fields = request._source;
  if (
    fields !== undefined &&
    typeof fields !== 'boolean' &&
    !(
      Array.isArray(fields) &&
      fields.every((field) => typeof field === 'string' && !field.includes('*'))
    )
  )
    throw FakeOpenSearchError.unsupported(`_source filtering ${JSON.stringify(fields)}`);
  const hits = indexes
    .flatMap((index) => index.search(request).map((hit) => ({ index: index.name, ...hit })))
    .sort((a, b) => b.score - a.score)
    .slice(0, Number(request.size ?? 10));
  const sourceOf = (source: Record<string, unknown>) =>
    fields === false
      ? undefined
      : Array.isArray(fields)
        ? Object.fromEntries(Object.entries(source).filter(([key]) => fields.includes(key)))
        : source;
  return {
    took: 1,
    timed_out: false,
    _shards: { total: indexes.length, successful: indexes.length, skipped: 0, failed: 0 },
    hits: {
      total: { value: hits.length, relation: 'eq' },
      max_score: hits[0]?.score ?? null,
      hits: hits.map((hit) => ({
        _index: hit.index,
        _id: hit.id,
        _score: hit.score,
        ...(fields === false ? {} : { _source: sourceOf(hit.source) }),
      })),
    },
  };
}

/** `_delete_by_query`: `{query}` only; deletes what is searchable now. */
export function deleteByQuery(
  cluster: DocumentCluster,
  name: string,
  body: unknown,
  query: URLSearchParams,
) {
  const request = allowKeys(body, ['query'], 'delete by query request');
  const indexes = targetsOf(cluster, name);
  if (cluster.health === 'red')
    throw new FakeOpenSearchError(503, 'search_phase_execution_exception', 'all shards failed', {
      phase: 'query',
      grouped: true,
      failed_shards: [],
    });
  let deleted = 0;
  for (const index of indexes) deleted += index.deleteByQuery(request.query);
  if (query.get('refresh') === 'true') for (const index of indexes) index.refresh();
  return {
    took: 1,
    timed_out: false,
    total: deleted,
    deleted,
    batches: 1,
    version_conflicts: 0,
    noops: 0,
    retries: { bulk: 0, search: 0 },
    throttled_millis: 0,
    requests_per_second: -1,
    throttled_until_millis: 0,
    failures: [],
  };
}

/** `_refresh`: makes every write searchable. */
export function refresh(cluster: DocumentCluster, name: string) {
  const indexes = targetsOf(cluster, name);
  for (const index of indexes) index.refresh();
  return { _shards: { total: indexes.length * 2, successful: indexes.length, failed: 0 } };
}

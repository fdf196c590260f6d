import type { ClusterReply } from './cluster-reply.ts';
import { allowKeys, FakeOpenSearchError } from './fake-errors.ts';
import { FakeIndex } from './fake-index.ts';

/** What the index endpoints need of the cluster. */
export interface IndexCluster {
  readonly indexes: Map<string, FakeIndex>;
  readonly plugins: Set<string>;
  health: 'green' | 'yellow' | 'red';
  /** The indexes a name resolves to (an index, or an alias's targets); none when unknown. */
  resolve(name: string): FakeIndex[];
  isAlias(name: string): boolean;
}

const invalidIndexName = /[A-Z\\/*?"<>| ,#:]|^[-_+]|^\.\.?$/;

/** `GET /_cat/plugins`: the plugin components, as JSON rows or text lines. */
export function catPlugins(cluster: IndexCluster, query: URLSearchParams): ClusterReply {
  const rows = [...cluster.plugins].map((component) => ({
    name: 'fake-node-1',
    component,
    version: '2.19.0',
  }));
  if (query.get('format') === 'json') return { status: 200, json: rows };
  if (query.has('format'))
    throw FakeOpenSearchError.unsupported(`_cat format [${query.get('format')}]`);
  return {
    status: 200,
    text: rows.map((row) => `${row.name} ${row.component} ${row.version}\n`).join(''),
  };
}

/** `GET /_cluster/health[/<target>]`: the configured status; 408 and red for a missing target. */
export function clusterHealth(cluster: IndexCluster, target: string | undefined): ClusterReply {
  const missing = target !== undefined && cluster.resolve(target).length === 0;
  const shards = [...cluster.indexes.values()].length;
  const body = {
    cluster_name: 'fake-opensearch',
    status: missing ? 'red' : cluster.health,
    timed_out: missing,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    discovered_master: true,
    discovered_cluster_manager: true,
    active_primary_shards: shards,
    active_shards: shards,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: cluster.health === 'red' ? shards : 0,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: cluster.health === 'red' ? 0 : 100,
  };
  // OpenSearch waits out `timeout` for an index that does not exist, then answers 408 with a red status.
  return { status: missing ? 408 : 200, json: body };
}

/** `GET /_alias/<name>`: the indexes behind an alias, or OpenSearch's "alias missing" 404. */
export function getAlias(cluster: IndexCluster, name: string): ClusterReply {
  const targets = cluster.isAlias(name) ? cluster.resolve(name) : [];
  if (targets.length === 0)
    return { status: 404, json: { error: `alias [${name}] missing`, status: 404 } };
  return {
    status: 200,
    json: Object.fromEntries(targets.map((index) => [index.name, { aliases: { [name]: {} } }])),
  };
}

/** `PUT /<index>`: settings, mappings and aliases, checked as OpenSearch checks them. */
export function createIndex(cluster: IndexCluster, name: string, body: unknown) {
  if (invalidIndexName.test(name))
    throw new FakeOpenSearchError(
      400,
      'invalid_index_name_exception',
      `Invalid index name [${name}], must be lowercase and must not contain the characters \\, /, *, ?, ", <, >, |, space, comma, #, :`,
      { index: name },
    );
  const existing = cluster.indexes.get(name);
  if (existing)
    throw new FakeOpenSearchError(
      400,
      'resource_already_exists_exception',
      `index [${name}/${existing.uuid}] already exists`,
      { index_uuid: existing.uuid, index: name },
    );
  if (cluster.isAlias(name))
    throw new FakeOpenSearchError(
      400,
      'invalid_index_name_exception',
      `Invalid index name [${name}], already exists as alias`,
      { index: name },
    );
  const request = allowKeys(
    body ?? {},
    ['settings', 'mappings', 'aliases'],
    'create index request',
  );
  const aliases = allowKeys(request.aliases ?? {}, Object.keys(request.aliases ?? {}), 'aliases');
  for (const [alias, options] of Object.entries(aliases)) {
    allowKeys(options, [], `alias [${alias}]`);
    if (cluster.indexes.has(alias) || alias === name)
      throw new FakeOpenSearchError(
        400,
        'invalid_alias_name_exception',
        `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
        { index: alias },
      );
  }
  const index = new FakeIndex(name, request.settings, request.mappings, cluster.plugins);
  for (const alias of Object.keys(aliases)) index.aliases.add(alias);
  cluster.indexes.set(name, index);
  return { acknowledged: true, shards_acknowledged: true, index: name };
}

/** `DELETE /<index>`: a concrete index only (an alias is refused). */
export function deleteIndex(cluster: IndexCluster, name: string) {
  if (cluster.isAlias(name))
    throw new FakeOpenSearchError(
      400,
      'illegal_argument_exception',
      `The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`,
    );
  if (!cluster.indexes.delete(name)) throw FakeOpenSearchError.indexNotFound(name);
  return { acknowledged: true };
}

/** `POST /_aliases`: add, remove and remove_index actions, checked first and applied together. */
export function updateAliases(cluster: IndexCluster, body: unknown) {
  const { actions } = allowKeys(body, ['actions'], 'aliases request');
  if (!Array.isArray(actions))
    throw new FakeOpenSearchError(400, 'parsing_exception', '[actions] must be an array');
  const steps = actions.map((action) => {
    const [kind, options] =
      Object.entries(allowKeys(action, ['add', 'remove', 'remove_index'], 'alias action'))[0] ?? [];
    const fields = allowKeys(
      options,
      kind === 'remove_index' ? ['index'] : ['index', 'alias'],
      `${kind} action`,
    );
    const index = cluster.indexes.get(String(fields.index));
    if (index === undefined) throw FakeOpenSearchError.indexNotFound(String(fields.index));
    const alias = String(fields.alias ?? '');
    if (kind === 'add' && cluster.indexes.has(alias))
      throw new FakeOpenSearchError(
        400,
        'invalid_alias_name_exception',
        `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
        { index: alias },
      );
    return { kind, index, alias };
  });
  for (const step of steps) {
    if (step.kind === 'add') step.index.aliases.add(step.alias);
    else if (step.kind === 'remove') step.index.aliases.delete(step.alias);
    else cluster.indexes.delete(step.index.name);
  }
  return { acknowledged: true };
}

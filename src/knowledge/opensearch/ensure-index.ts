import type { Embedder } from '../../models/index.ts';
import { SearchConfigError } from '../errors/search-config-error.ts';
import { SearchIndexMismatchError } from '../errors/search-index-mismatch-error.ts';
import { responseErrorOf } from './cluster-errors.ts';
import type { IndexClient } from './index-client.ts';
import {
  buildIndexDefinition,
  type IndexDefinition,
  type IndexMeta,
  indexSchemaVersion,
  type KoreanAnalysis,
} from './index-definition.ts';

/** The index Yeoul works with after start: its alias, the index behind it, how it analyses Korean. */
export interface PreparedIndex {
  alias: string;
  concrete: string;
  analysis: KoreanAnalysis;
  /** True when the index was just created (empty): the stored documents are to be indexed. */
  created: boolean;
  /** True when the index uses CJK bigrams although the cluster now has nori (a reindex would switch). */
  noriAvailable: boolean;
}

/** The analysis a new index gets on this cluster, checking the plugins an embedder needs too. */
export async function chooseAnalysis(
  index: IndexClient,
  embedder: Embedder | undefined,
): Promise<KoreanAnalysis> {
  const plugins = await index.plugins();
  if (embedder && !plugins.has('opensearch-knn')) {
    throw new SearchConfigError({
      problems: [
        `YEOUL_EMBEDDING_MODEL is set but the cluster has no k-NN plugin (opensearch-knn); install it or unset YEOUL_EMBEDDING_MODEL`,
      ],
    });
  }
  return plugins.has('analysis-nori') ? 'nori' : 'cjk';
}

/** The definition of a new index on this cluster (asks the embedder once for the vector size). */
export async function newIndexDefinition(
  analysis: KoreanAnalysis,
  embedder: Embedder | undefined,
): Promise<IndexDefinition> {
  if (embedder === undefined) return buildIndexDefinition({ analysis });
  const [probe] = await embedder.embed(['Yeoul vector size probe']);
  return buildIndexDefinition({
    analysis,
    embedding: { model: embedder.name, dimensions: probe?.length ?? 0 },
  });
}

/** A fresh concrete index name behind the alias: `<alias>-v<schema>-<time>`. */
export function concreteIndexName(alias: string, now: number): string {
  return `${alias}-v${indexSchemaVersion}-${now}`;
}

/**
 * At start: creates the index (behind its alias) when it is missing, or checks that the
 * existing one was built by this version of Yeoul with the same embedding model. A
 * mismatch is a SearchIndexMismatchError naming the fix (`yeoul reindex`).
 */
export async function ensureIndex(
  index: IndexClient,
  options: { alias: string; embedder: Embedder | undefined },
): Promise<PreparedIndex> {
  const analysisWanted = await chooseAnalysis(index, options.embedder);
  let targets = await index.aliasTargets(options.alias);
  if (targets.length === 0) {
    // One name for every instance that finds the alias missing (stamp 0; a reindex stamps its
    // indexes with the time): instances starting together on one cluster collide on it, and all
    // but one then use that one's index, instead of each putting its own behind the alias.
    const concrete = concreteIndexName(options.alias, 0);
    const definition = await newIndexDefinition(analysisWanted, options.embedder);
    try {
      await index.create(concrete, definition, options.alias);
      return {
        alias: options.alias,
        concrete,
        analysis: analysisWanted,
        created: true,
        noriAvailable: false,
      };
    } catch (error) {
      const refused = responseErrorOf(error);
      if (refused?.type === 'invalid_alias_name_exception') {
        throw new SearchIndexMismatchError({
          index: options.alias,
          differences: ['an index of that name exists that is not an alias Yeoul made'],
        });
      }
      // Another instance created it at the same moment: check theirs.
      if (refused?.type !== 'resource_already_exists_exception') throw error;
      targets = await index.aliasTargets(options.alias);
    }
  }
  const described = await index.describe(options.alias);
  const differences: string[] = [];
  if (described.length !== 1)
    differences.push(`the alias points at ${described.length} indexes instead of one`);
  const concrete = described[0];
  const meta = concrete?.mappings._meta?.yeoul as IndexMeta | undefined;
  if (concrete === undefined || meta === undefined) {
    differences.push('it was not created by Yeoul (its mappings have no _meta.yeoul)');
    throw new SearchIndexMismatchError({ index: options.alias, differences });
  }
  differences.push(...metaDifferences(meta, options.embedder));
  if (differences.length > 0)
    throw new SearchIndexMismatchError({ index: options.alias, differences });
  return {
    alias: options.alias,
    concrete: concrete.name,
    analysis: meta.analysis,
    created: false,
    noriAvailable: meta.analysis === 'cjk' && analysisWanted === 'nori',
  };
}

/** How an existing index's recorded definition differs from what this Yeoul would build. */
function metaDifferences(meta: IndexMeta, embedder: Embedder | undefined): string[] {
  const differences: string[] = [];
  if (meta.schema !== indexSchemaVersion) {
    differences.push(`schema version ${meta.schema}, expected ${indexSchemaVersion}`);
    return differences;
  }
  const model = meta.embedding?.model;
  if (model !== embedder?.name) {
    differences.push(
      `its vectors come from ${model ?? 'no embedding model'}, but YEOUL_EMBEDDING_MODEL is ${embedder?.name ?? 'unset'}`,
    );
  }
  const expected = buildIndexDefinition({
    analysis: meta.analysis,
    embedding: meta.embedding ?? undefined,
  });
  if (expected.mappings._meta.yeoul.fingerprint !== meta.fingerprint) {
    differences.push(
      `its settings or mappings differ (fingerprint ${meta.fingerprint}, expected ${expected.mappings._meta.yeoul.fingerprint})`,
    );
  }
  return differences;
}

import { createHash } from 'node:crypto';

/**
 * The version of Yeoul's index settings and mappings. Raise it with any change below: an
 * index built by another version is refused at start until `yeoul reindex` rebuilds it.
 */
export const indexSchemaVersion = 1;

/** The Korean analysis the index uses: the nori plugin's morphology, or the built-in CJK bigrams. */
export type KoreanAnalysis = 'nori' | 'cjk';

/** The vectors an index holds: which embedding model made them and their size. */
export interface IndexEmbedding {
  model: string;
  dimensions: number;
}

/** What an index is built from: the Korean analysis and, with an embedder, the vectors. */
export interface IndexDefinitionOptions {
  analysis: KoreanAnalysis;
  embedding?: IndexEmbedding | undefined;
}

/** What Yeoul records in the index's mappings `_meta.yeoul`, to recognise its own indexes. */
export interface IndexMeta {
  schema: number;
  analysis: KoreanAnalysis;
  embedding: IndexEmbedding | null;
  /** 16 hex digits of the SHA-256 of the settings and mappings: any change shows. */
  fingerprint: string;
}

/** The body of `PUT /<index>`: settings and mappings. */
export interface IndexDefinition {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown> & { _meta: { yeoul: IndexMeta } };
}

/** Title matches weigh twice as much as body matches (heading and text), as in SqliteRetriever's BM25. */
export const searchedFields = ['title^2', 'body'] as const;

const textAnalyzer = 'yeoul_text';

/**
 * `cjk`: the built-in CJK analyzer's chain (standard tokenizer, cjk_width, lowercase,
 * cjk_bigram, English stop words) with a script-boundary char filter and plural stemming.
 */
function analysisSettings(analysis: KoreanAnalysis): Record<string, unknown> {
  const stemmer = { yeoul_english_stemmer: { type: 'stemmer', language: 'minimal_english' } };
  if (analysis === 'nori') {
    return {
      tokenizer: { yeoul_nori: { type: 'nori_tokenizer', decompound_mode: 'mixed' } },
      filter: stemmer,
      analyzer: {
        [textAnalyzer]: {
          type: 'custom',
          tokenizer: 'yeoul_nori',
          filter: ['nori_part_of_speech', 'nori_readingform', 'lowercase', 'yeoul_english_stemmer'],
        },
      },
    };
  }
  return {
    // The standard tokenizer keeps `SK하이닉스` or `2024년` whole, so no bigram would match
    // `하이닉스`; a space between Latin letters or digits and Hangul splits them, as Yeoul's
    // own analyzer does.
    char_filter: {
      yeoul_script_boundary: {
        type: 'pattern_replace',
        pattern: '(?<=[A-Za-z0-9])(?=[가-힣])|(?<=[가-힣])(?=[A-Za-z0-9])',
        replacement: ' ',
      },
    },
    filter: { yeoul_english_stop: { type: 'stop', stopwords: '_english_' }, ...stemmer },
    analyzer: {
      [textAnalyzer]: {
        type: 'custom',
        char_filter: ['yeoul_script_boundary'],
        tokenizer: 'standard',
        filter: [
          'cjk_width',
          'lowercase',
          'cjk_bigram',
          'yeoul_english_stop',
          'yeoul_english_stemmer',
        ],
      },
    },
  };
}

/**
 * Yeoul's index: one entry per chunk. `title` and `body` (heading and text) are analysed
 * for BM25; `heading`, `text` and `metadata` are kept for hits only; `body` and the vector
 * are left out of `_source` (they are rebuilt from the store by `yeoul reindex`).
 */
export function buildIndexDefinition(options: IndexDefinitionOptions): IndexDefinition {
  const embedding = options.embedding;
  const settings = {
    index: {
      ...(embedding ? { knn: true } : {}),
      analysis: analysisSettings(options.analysis),
    },
  };
  const properties: Record<string, unknown> = {
    documentId: { type: 'keyword' },
    chunkId: { type: 'keyword' },
    position: { type: 'integer' },
    ticket: { type: 'long' },
    title: { type: 'text', analyzer: textAnalyzer },
    heading: { type: 'text', index: false },
    text: { type: 'text', index: false },
    body: { type: 'text', analyzer: textAnalyzer },
    metadata: { type: 'object', enabled: false },
  };
  if (embedding) {
    properties.embedding = {
      type: 'knn_vector',
      dimension: embedding.dimensions,
      method: {
        name: 'hnsw',
        space_type: 'cosinesimil',
        engine: 'lucene',
        parameters: { m: 16, ef_construction: 128 },
      },
    };
  }
  const mappings = {
    dynamic: 'strict',
    _source: { excludes: ['body', 'embedding'] },
    properties,
  };
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([indexSchemaVersion, settings, mappings]))
    .digest('hex')
    .slice(0, 16);
  const meta: IndexMeta = {
    schema: indexSchemaVersion,
    analysis: options.analysis,
    embedding: embedding ?? null,
    fingerprint,
  };
  return { settings, mappings: { _meta: { yeoul: meta }, ...mappings } };
}

/** The fields a hit reads from `_source`. */
export const hitFields = ['documentId', 'chunkId', 'title', 'heading', 'text', 'metadata'] as const;

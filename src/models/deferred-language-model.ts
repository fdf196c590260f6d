import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';

/**
 * A language model whose provider package loads on its first call. The AI SDK's provider
 * packages build a default provider as they load, from `process.env` (an empty
 * `OPENAI_BASE_URL` makes that throw), so Yeoul imports none of them until a model of theirs
 * is called: importing Yeoul builds no provider, and the offline model never loads one.
 * @example
 * const model = new DeferredLanguageModel({ provider: 'openai', modelId: 'gpt-4o-mini' }, async () =>
 *   (await import('@ai-sdk/openai')).createOpenAI({ apiKey }).chat('gpt-4o-mini'));
 */
export class DeferredLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly #create: () => Promise<LanguageModelV4>;
  #model: Promise<LanguageModelV4> | undefined;

  constructor(info: { provider: string; modelId: string }, create: () => Promise<LanguageModelV4>) {
    this.provider = info.provider;
    this.modelId = info.modelId;
    this.#create = create;
  }

  /** The provider's model, built on the first call and kept. */
  load(): Promise<LanguageModelV4> {
    this.#model ??= this.#create();
    return this.#model;
  }

  /** The provider model's URL patterns (asked only when a call is made). */
  get supportedUrls(): PromiseLike<Record<string, RegExp[]>> {
    return this.load().then((model) => model.supportedUrls);
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    return (await this.load()).doGenerate(options);
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    return (await this.load()).doStream(options);
  }
}

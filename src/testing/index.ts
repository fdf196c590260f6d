export {
  buildChatFixtureGraph,
  type ChatFixtureState,
  chatFixtureInput,
  chatFixtureSchema,
  type FixtureMessage,
} from './chat-graph.ts';
export { checkpointerConformance, entryFor } from './checkpointer-conformance.ts';
export {
  type FakeChatProvider,
  type FakeChatTurn,
  startFakeAnthropic,
  startFakeOllama,
} from './fake-chat-providers.ts';
export {
  type FakeHandler,
  type FakeHttpServer,
  type FakeReply,
  type RecordedRequest,
  startFakeHttpServer,
} from './fake-http-server.ts';
export {
  type FakeArticle,
  type FakeMediaWiki,
  fakeWikiArticles,
  startFakeMediaWiki,
} from './fake-mediawiki.ts';
export { type FakeOpenMeteo, startFakeOpenMeteo } from './fake-open-meteo.ts';
export {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  fakeEmbedding,
  startFakeOpenAiServer,
} from './fake-openai-server.ts';
export { type FakeOpenWeather, startFakeOpenWeather } from './fake-openweather.ts';
export { type FakePlace, fakePlaces, findFakePlace } from './fake-places.ts';
export { type FakeTavily, type FakeWebPage, fakeWebPages, startFakeTavily } from './fake-tavily.ts';
export { minimalPdf } from './minimal-pdf.ts';
export { buildPipelineGraph, pipelineNodes, pipelineSchema } from './pipeline-graph.ts';
export { chunkOf, retrieverConformance, storedDocument } from './retriever-conformance.ts';
export {
  type ScriptedLanguageModel,
  type ScriptedReply,
  scriptedLanguageModel,
} from './scripted-language-model.ts';

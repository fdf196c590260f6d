// The repository's own test door: fakes that speak real wire formats, launchers of real
// programs (PostgreSQL, Prometheus, Chromium, the yeoul CLI), provisioning and fixtures.
// Imported by tests and benchmarks only; not part of the package (`yeoul/testing` is ../index.ts).
export {
  buildChatFixtureGraph,
  type ChatFixtureState,
  chatFixtureInput,
  chatFixtureSchema,
  type FixtureMessage,
} from './chat-graph.ts';
export { closedPortUrl, freePort } from './closed-port.ts';
export { makeConfigProject, yeoulDoor } from './config-project.ts';
export { type CuttingProxy, startCuttingProxy } from './cutting-proxy.ts';
export { echoCompletion, lastUserText } from './echo-completion.ts';
export { MissingProgramError } from './errors/missing-program-error.ts';
export { evalOutcome } from './eval-outcome.ts';
export type { FakeAwsCredentials } from './fake-aws-signature.ts';
export { startFakeAzureOpenAi } from './fake-azure-openai.ts';
export { startFakeBedrock } from './fake-bedrock.ts';
export {
  type FakeChatProvider,
  type FakeChatScript,
  type FakeChatTurn,
  startFakeAnthropic,
  startFakeOllama,
} from './fake-chat-providers.ts';
export { fakeCliIo } from './fake-cli-io.ts';
export {
  type FakeCloudWatchEvent,
  type FakeCloudWatchLogs,
  startFakeCloudWatchLogs,
} from './fake-cloudwatch-logs.ts';
export { type FakeDatadog, startFakeDatadog } from './fake-datadog.ts';
export { datadogStatus, type FakeDatadogLog } from './fake-datadog-query.ts';
export { startFakeGemini } from './fake-gemini.ts';
export {
  type FakeHandler,
  type FakeHttpServer,
  type FakeReply,
  type RecordedRequest,
  startFakeHttpServer,
} from './fake-http-server.ts';
export {
  type FakeIdentityProvider,
  hs256Token,
  type SignOptions,
  startFakeIdentityProvider,
} from './fake-identity-provider.ts';
export { type FakeLoki, type FakeLokiStream, startFakeLoki } from './fake-loki.ts';
export { type FakeMcpMode, fakeMcpServerCommand, runFakeMcpServer } from './fake-mcp-server.ts';
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
export {
  type BulkItemFailure,
  type FakeOpenSearch,
  type FakeOpenSearchOptions,
  type FakeOpenSearchRequest,
  startFakeOpenSearch,
} from './fake-opensearch.ts';
export { type FakeOpenWeather, startFakeOpenWeather } from './fake-openweather.ts';
export {
  type CollectedSpan,
  type FakeOtlpCollector,
  startFakeOtlpCollector,
} from './fake-otlp-collector.ts';
export { type FakePlace, fakePlaces, findFakePlace } from './fake-places.ts';
export { type FakeTavily, type FakeWebPage, fakeWebPages, startFakeTavily } from './fake-tavily.ts';
export { type KeyedResponse, keyedClient } from './keyed-client.ts';
export { minimalPdf } from './minimal-pdf.ts';
export {
  buildFanOutPipelineGraph,
  buildPipelineGraph,
  pipelineNodes,
  pipelineSchema,
} from './pipeline-graph.ts';
export {
  createDatabaseOn,
  type PostgresServer,
  type PostgresServerOptions,
  startPostgresServer,
} from './postgres-server.ts';
export { type PrometheusServer, startPrometheus } from './prometheus-server.ts';
export {
  parentSchema,
  researchParent,
  researchSchema,
  researchSubgraph,
} from './research-subgraph.ts';
export { schemaDrift } from './schema-drift.ts';
export { seededRandom } from './seeded-random.ts';
export {
  type LoadTarget,
  type SteadyLoad,
  sendTurn,
  startSteadyLoad,
  type TurnOutcome,
  tallyOutcomes,
} from './steady-load.ts';
export {
  type OpenedStores,
  openSqliteDatabase,
  postgresStores,
  sqliteStores,
} from './store-openers.ts';
export {
  requireSystemProgram,
  type SystemProgramName,
  systemPrograms,
} from './system-programs.ts';
export { waitUntil } from './wait-until.ts';
export {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-receiver.ts';
export {
  childEnv,
  cliPath,
  readEvents,
  runYeoul,
  type ServeProcess,
  startServeProcess,
  type YeoulRun,
} from './yeoul-process.ts';

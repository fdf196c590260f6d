export {
  buildChatFixtureGraph,
  type ChatFixtureState,
  chatFixtureInput,
  chatFixtureSchema,
  type FixtureMessage,
} from './chat-graph.ts';
export { checkpointerConformance, entryFor } from './checkpointer-conformance.ts';
export {
  type ChatCompletionRequest,
  type FakeCompletion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from './fake-openai-server.ts';
export { buildPipelineGraph, pipelineNodes, pipelineSchema } from './pipeline-graph.ts';

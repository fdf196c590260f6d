export { AnsweringModelScope } from './answering-model.ts';
export { ChatModel } from './chat-model.ts';
export {
  chatModelFrom,
  isLanguageModel,
  type ModelChainSpec,
  type ModelSpec,
} from './chat-model-from.ts';
export { type Embedder, resolveEmbedder } from './embedding-model.ts';
export { InputTooLongError } from './errors/input-too-long-error.ts';
export { ModelCallError } from './errors/model-call-error.ts';
export { ModelConfigError } from './errors/model-config-error.ts';
export { readModelConfig } from './model-config.ts';
export { redactSecrets } from './model-health.ts';
export { type ModelVariables, modelVariables } from './model-variables.ts';
export { dateQuestion } from './offline/intents.ts';
export { isLogQuestion } from './offline/log-intent.ts';
export { longTermProfileHeading, nameStatedIn } from './offline/names.ts';
export { promptTokens } from './prompt-text.ts';
export { providers, unknownProviders } from './providers.ts';
export { resolveModel } from './resolve-model.ts';
export {
  countTokens,
  countTokensOver,
  loadTokenizer,
  messageTokens,
  truncateToTokens,
} from './token-budget.ts';
export type { ChatMessage, ModelCallResult, ModelTool, ToolCall } from './types.ts';

export { ChatModel, defaultModelSettings } from './chat-model.ts';
export { chatModelFrom, isLanguageModel, type ModelSpec } from './chat-model-from.ts';
export { type Embedder, resolveEmbedder } from './embedding-model.ts';
export { InputTooLongError } from './errors/input-too-long-error.ts';
export {
  ModelCallError,
  type ModelErrorCode,
  type ModelFailureReason,
} from './errors/model-call-error.ts';
export { ModelConfigError } from './errors/model-config-error.ts';
export {
  defaultModelIds,
  type ModelConfig,
  providers,
  readModelConfig,
} from './model-config.ts';
export { type ModelFailureRecord, ModelHealth, redactSecrets } from './model-health.ts';
export { type ModelVariables, modelVariables } from './model-variables.ts';
export { dateQuestion } from './offline/intents.ts';
export { isLogQuestion } from './offline/log-intent.ts';
export {
  longTermProfileHeading,
  nameStatedIn,
} from './offline/names.ts';
export { OfflineLanguageModel } from './offline/offline-language-model.ts';
export { promptTokens } from './prompt-text.ts';
export { resolveModel } from './resolve-model.ts';
export {
  type BudgetedPrompt,
  countTokens,
  countTokensOver,
  fitToBudget,
  loadTokenizer,
  messageTokens,
  truncateToTokens,
} from './token-budget.ts';
export type {
  ChatMessage,
  ModelCallOptions,
  ModelCallResult,
  ModelInfo,
  ModelSettings,
  ModelTool,
  ModelUsage,
  ProviderName,
  ToolCall,
} from './types.ts';

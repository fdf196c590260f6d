export { type CompileGuardrailsOptions, compileGuardrails } from './compile-guardrails.ts';
export {
  type DenyOptions,
  defineGuardrail,
  deny,
  type GuardrailDefinition,
  type GuardrailSubject,
  maxInputChars,
  type NamedOptions,
  type PiiDetectorOption,
  type PiiOptions,
  type PromptInjectionOptions,
  pii,
  promptInjection,
  type ToolArgsSpec,
  toolArgs,
} from './factories.ts';
export { type GuardrailVariables, guardrailVariables } from './guardrail-variables.ts';
export { type PiiKind, piiKinds } from './pii/find-pii.ts';
export { PlaceholderVault } from './placeholder-vault.ts';
export { refusalOf } from './refusal-of.ts';
export type {
  GraphGuardrails,
  GuardrailSuite,
  OutputGuard,
  StageOutcome,
  StageRun,
  ToolArgsOutcome,
} from './suite-types.ts';
export type {
  BuiltinGuardrail,
  BuiltinGuardrailName,
  CustomGuardrail,
  DetectorAction,
  GuardrailAction,
  GuardrailCheckContext,
  GuardrailEntry,
  GuardrailLists,
  GuardrailRecord,
  GuardrailStage,
  GuardrailsConfig,
  GuardrailVerdict,
  ToolSubject,
  VaultEntry,
} from './types.ts';

// `yeoul/testing`, the package's testing door: what a project built on Yeoul needs in its own
// tests — a scripted model in place of a real one, and a throwaway server on a free port.
// The repository's own fakes, launchers and provisioning live in internal/ (not packed).
export {
  type ScriptedLanguageModel,
  type ScriptedReply,
  scriptedLanguageModel,
} from './scripted-language-model.ts';
export {
  startThrowawayServer,
  type ThrowawayServer,
  type ThrowawayServerOptions,
} from './throwaway-server.ts';

// `yeoul/testing`: what a project built on Yeoul needs in its own tests — a scripted model
// in place of a real one, and a throwaway server on a free port. (The repository's own
// fakes and fixtures are in index.ts, which is not part of the package.)
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

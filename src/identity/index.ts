export { credentialOf, type RequestHeaders } from './credential-of.ts';
export {
  createIdentityResolver,
  type IdentifyOutcome,
  type IdentityRequest,
  type IdentityResolver,
  type IdentitySettings,
  identitySettingsOf,
} from './identity-resolver.ts';
export {
  type IdentityVariables,
  identityVariableProblems,
  identityVariables,
} from './identity-variables.ts';
export { anonymousIdentity, anonymousOwner, ownerOfKey } from './key-ring.ts';
export { isOwnerName, ownWorkspaceFolder } from './owner-names.ts';
export { defaultTokenScopes, isScope } from './scope-set.ts';
export type { TokenOutcome } from './token-verifier.ts';
export {
  type AuthenticateHook,
  type AuthHookIdentity,
  type AuthRefusal,
  type AuthRequest,
  type AuthSettings,
  type Identity,
  type IdentityVia,
  type JwtSettings,
  type Scope,
  scopes,
} from './types.ts';

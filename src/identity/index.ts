export { type Identity, type IdentityVia, type Scope, scopes } from './types.ts';

export { InvalidMemoryNameError } from './errors/invalid-memory-name-error.ts';
export { MemoryValueTooLargeError } from './errors/memory-value-too-large-error.ts';
export {
  checkMemoryNames,
  defaultMemoryLimit,
  maxMemoryLimit,
  maxMemoryValueBytes,
  memoryKeySchema,
  namespaceSchema,
} from './memory-names.ts';
export {
  forOwner,
  openPostgresMemoryStore,
  openSqliteMemoryStore,
} from './open-memory-store.ts';
export { memoryMigrations } from './postgres-migrations.ts';
export type { MemoryItem, MemoryQuery, MemoryStore, OwnerMemory } from './types.ts';

export { InvalidMemoryNameError } from './errors/invalid-memory-name-error.ts';
export { checkMemoryNames } from './memory-names.ts';
export { forOwner, openPostgresMemoryStore, openSqliteMemoryStore } from './open-memory-store.ts';
export { memoryMigrations } from './postgres-migrations.ts';
export type { MemoryItem, MemoryStore, OwnerMemory } from './types.ts';

export { combineSignals, neverAbortedSignal, type ScopedSignal, scopedSignal } from './abort.ts';
export { AsyncQueue } from './async-queue.ts';
export { isYeoulError, YeoulError, type YeoulErrorOptions } from './errors/yeoul-error.ts';
export { createId } from './ids.ts';
export { SqliteWriteBatch } from './sqlite-write-batch.ts';

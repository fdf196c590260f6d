import { checkpointerConformance } from './checkpointer-conformance.ts';
import { MemoryCheckpointer } from './memory-checkpointer.ts';

checkpointerConformance('memory', () => new MemoryCheckpointer());

import { checkpointerConformance } from '../../testing/checkpointer-conformance.ts';
import { MemoryCheckpointer } from './memory-checkpointer.ts';

checkpointerConformance('memory', () => new MemoryCheckpointer());

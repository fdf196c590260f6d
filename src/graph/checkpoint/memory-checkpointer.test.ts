import { checkpointerConformance } from '../../testing/index.ts';
import { MemoryCheckpointer } from './memory-checkpointer.ts';

checkpointerConformance('memory', () => new MemoryCheckpointer());

import { z } from 'zod';

/** A path argument of the file tools: relative to the workspace (checked when resolved). */
export const workspacePath = z.string().min(1).max(1_000);

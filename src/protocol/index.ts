export {
  evalRunBody,
  evalRunListSchema,
  evalRunSchema,
  evalRunStartedSchema,
  feedbackBody,
  feedbackSavedSchema,
} from './eval-schemas.ts';
export {
  forkBody,
  forkResponseSchema,
  graphListSchema,
  graphRunBody,
  graphRunResponseSchema,
} from './graph-schemas.ts';
export { meResponseSchema, scopeSchema } from './identity-schemas.ts';
export { memoryItemSchema, memoryListSchema, memoryPutBody } from './memory-schemas.ts';
export {
  decisionSchema,
  documentsBody,
  invokeBody,
  onBusyModes,
  onBusySchema,
  requestOptions,
  runBody,
  searchBody,
  sessionIdPattern,
  sessionIdSchema,
  webhookSchema,
} from './request-schemas.ts';
export {
  documentListSchema,
  documentsCreatedSchema,
  errorResponseSchema,
  guardrailBlockSchema,
  guardrailRecordSchema,
  historySchema,
  interruptSchema,
  invokeResponseSchema,
  runStatusSchema,
  searchResponseSchema,
  sessionListSchema,
  sessionSchema,
  statusResponseSchema,
} from './response-schemas.ts';
export {
  pruneBody,
  pruneResponseSchema,
  retentionDurationSchema,
} from './retention-schemas.ts';
export {
  runCancelledSchema,
  runListQuery,
  runListSchema,
  runParams,
  runRecordStatusSchema,
  runSchema,
  runStartedSchema,
  runWaitQuery,
} from './run-schemas.ts';
export { agentStreamEventSchemas, graphStreamEventSchemas } from './stream-event-schemas.ts';
export { everyOwnersUsageSchema, usageQuery, usageReportSchema } from './usage-schemas.ts';

export { CronSchedule, parseCron } from './cron-schedule.ts';
export { PostgresScheduleStore } from './postgres-schedule-store.ts';
export {
  onBusyModes,
  type ScheduleBody,
  type ScheduleChangesBody,
  scheduleBody,
  scheduleChangesBody,
  scheduleOptionsSchema,
} from './schedule-body.ts';
export {
  newScheduleOf,
  nextRunAtOf,
  type ScheduleView,
  scheduleUpdateOf,
  scheduleView,
} from './schedule-definition.ts';
export { scheduleMigrations } from './schedule-migrations.ts';
export {
  type RunnerClock,
  type ScheduleFire,
  ScheduleRunner,
  type ScheduleRunnerOptions,
} from './schedule-runner.ts';
export type {
  NewSchedule,
  OnBusy,
  Schedule,
  ScheduleDefinition,
  ScheduleFiring,
  ScheduleStore,
  ScheduleUpdate,
} from './schedule-store.ts';
export { SqliteScheduleStore } from './sqlite-schedule-store.ts';
export { isTimeZone } from './time-zone.ts';

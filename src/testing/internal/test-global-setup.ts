import { provisionSystemPrograms } from './provision-system.ts';

/**
 * `npm test`'s global setup (`node --test --test-global-setup=…`): provides the system programs
 * the tests start before any test runs (see `provisionSystemPrograms`).
 */
export async function globalSetup(): Promise<void> {
  await provisionSystemPrograms();
}

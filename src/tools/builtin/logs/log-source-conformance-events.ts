import type { LogEvent } from './types.ts';

/** One group of alike events in the conformance dataset. */
interface EventGroup {
  service: string;
  level: string;
  status?: number;
  message: (index: number) => string;
  count: number;
  /** Time of the index-th event, in seconds after the dataset's base time. */
  atSeconds: (index: number) => number;
}

const minute = 60;

/**
 * The groups the conformance counts are built from: 133 events of a small shop over five
 * hours, with a burst of card-gateway timeouts, payment 500s and failed orders at 299–304 min.
 */
const groups: EventGroup[] = [
  {
    service: 'payment-service',
    level: 'info',
    status: 200,
    count: 40,
    atSeconds: (i) => i * 7 * minute,
    message: (i) => `payment approved for ORD-${1000 + i}`,
  },
  {
    service: 'payment-service',
    level: 'warn',
    status: 200,
    count: 5,
    atSeconds: (i) => (30 + i * 50) * minute + 13,
    message: (i) => `card-gateway responded slowly (${2100 + i} ms)`,
  },
  {
    service: 'payment-service',
    level: 'WARNING',
    status: 200,
    count: 2,
    atSeconds: (i) => (100 + i * 50) * minute + 7,
    message: () => 'retrying card-gateway call',
  },
  {
    service: 'payment-service',
    level: 'error',
    status: 503,
    count: 3,
    atSeconds: (i) => 200 * minute + i * 30,
    message: () => 'service unavailable: instance draining for deploy',
  },
  {
    service: 'payment-service',
    level: 'error',
    status: 500,
    count: 12,
    atSeconds: (i) => 300 * minute + i * 20,
    message: (i) => `card-gateway request timed out after 5000 ms for ORD-${2000 + i}`,
  },
  {
    service: 'order-service',
    level: 'info',
    status: 201,
    count: 30,
    atSeconds: (i) => (i * 9 + 1) * minute + 3,
    message: (i) => `order created ORD-${3000 + i}`,
  },
  {
    service: 'order-service',
    level: 'error',
    status: 502,
    count: 7,
    atSeconds: (i) => 300 * minute + 15 + i * 30,
    message: (i) => `order ORD-${2000 + i} failed: payment-service returned 500`,
  },
  {
    service: 'card-gateway',
    level: 'info',
    count: 25,
    atSeconds: (i) => (i * 11 + 2) * minute + 5,
    message: (i) => `auth approved txn=TX${4000 + i}`,
  },
  {
    service: 'card-gateway',
    level: 'error',
    count: 9,
    atSeconds: (i) => 299 * minute + 3 + i * 25,
    message: (i) => `upstream timeout after 5000ms txn=TX${5000 + i}`,
  },
];

/** Seconds after the base time at which the burst window used by the time tests opens. */
export const burstStartSeconds = 299 * minute + 3;

/**
 * The conformance dataset: every event of {@link groups}, oldest first, timed from `base`
 * (whole milliseconds, no two events at the same instant).
 * @example const events = conformanceEvents(new Date(Date.now() - 6 * 3_600_000));
 */
export function conformanceEvents(base: Date): LogEvent[] {
  const timed: Array<{ timeMs: number; event: LogEvent }> = [];
  for (const group of groups) {
    for (let index = 0; index < group.count; index += 1) {
      const timeMs = base.getTime() + group.atSeconds(index) * 1000;
      const event: LogEvent = {
        timestamp: new Date(timeMs).toISOString(),
        level: group.level,
        service: group.service,
        ...(group.status === undefined ? {} : { status: group.status }),
        message: group.message(index),
        request_id: `req-${timed.length + 1}`,
      };
      timed.push({ timeMs, event });
    }
  }
  return timed.sort((left, right) => left.timeMs - right.timeMs).map(({ event }) => event);
}

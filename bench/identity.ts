// `npm run bench:identity`: what end users' identity, their limits and the model fallback chain
// cost, each against its own baseline measured in the same run —
// - jwtInvokeOverheadPct: invoke turns/s at 100 connections with RS256 tokens from a JWK Set
//   against the same server with a static key (bench/lib/jwt-invoke-overhead.ts);
// - limitCheckPostgresP50Ms: one limit check on PostgreSQL, beside a bare round trip and the
//   smallest write transaction (bench/lib/limit-check-postgres.ts);
// - fallbackSwitchOverFailedAttempt: moving to the next model against the failed attempt
//   itself (bench/lib/fallback-switch.ts).
// `--smoke` runs each part briefly (a check that it works, not a measurement). Progress goes to
// stderr; stdout gets the summary lines, then one JSON object with `targets`.
import { measureFallbackSwitch } from './lib/fallback-switch.ts';
import { jwtOverheadPlans, measureJwtInvokeOverhead } from './lib/jwt-invoke-overhead.ts';
import { limitCheckPlans, measureLimitCheckPostgres } from './lib/limit-check-postgres.ts';

const smoke = process.argv.includes('--smoke');
const mode = smoke ? 'smoke' : 'full';
// DATABASE_URL is for the limit check only: the invoke server stays on SQLite.
const { DATABASE_URL: databaseUrl, ...childEnv } = process.env;
const log = (...parts: unknown[]) => console.error('[identity]', ...parts);
const startedAt = performance.now();

const jwt = await measureJwtInvokeOverhead({ plan: jwtOverheadPlans[mode], env: childEnv, log });
const limit = await measureLimitCheckPostgres({ plan: limitCheckPlans[mode], databaseUrl, log });
log('model fallback: a primary failing after ~50 ms, a fallback answering at once');
const fallback = await measureFallbackSwitch(smoke ? { samples: 10, warmup: 2 } : { samples: 60 });

const { jwtInvokeOverheadPct, ...jwtDetails } = jwt;
const { limitCheckPostgresP50Ms, ...limitDetails } = limit;
const { fallbackSwitchOverFailedAttempt, ...fallbackDetails } = fallback;
const interleaved = jwtDetails.interleaved as { extraUsAtP50: number; extraPctAtP50: number };
const floors = limitDetails.floors as {
  selectOneUs: { p50: number };
  smallestWriteUs: { p50: number };
};
console.log(
  `jwtInvokeOverheadPct ${jwtInvokeOverheadPct.value} % (goal ≤ 5): static key ${jwtDetails.keyTurnsPerSec} turns/s, RS256 tokens ${jwtDetails.jwtTurnsPerSec} turns/s (the key against itself in the same run: ${jwtDetails.keyVsKeyPct} %); one at a time, a token's invoke takes ${interleaved.extraUsAtP50} µs (${interleaved.extraPctAtP50} %) more than a key's`,
);
console.log(
  `limitCheckPostgresP50Ms ${limitCheckPostgresP50Ms.value} ms (goal ≤ 0.2): floors SELECT 1 ${floors.selectOneUs.p50} µs, smallest write ${floors.smallestWriteUs.p50} µs (check ÷ write ${limitDetails.checkOverSmallestWrite}); the check without the WAL's flush ${(limitDetails.checkUnflushedUs as { p50: number }).p50} µs`,
);
console.log(
  `fallbackSwitchOverFailedAttempt ${fallbackSwitchOverFailedAttempt.value} (goal ≤ 1.1): chain ${fallbackDetails.chainP50Ms} ms, fallback alone ${fallbackDetails.fallbackAloneP50Ms} ms, failed primary ${fallbackDetails.failedPrimaryP50Ms} ms`,
);
console.log(
  JSON.stringify({
    bench: 'identity',
    smoke,
    seconds: Math.round((performance.now() - startedAt) / 1000),
    jwt: jwtDetails,
    limitCheck: limitDetails,
    fallback: fallbackDetails,
    targets: { jwtInvokeOverheadPct, limitCheckPostgresP50Ms, fallbackSwitchOverFailedAttempt },
  }),
);

// `npm run bench:guardrails`: what the guardrails cost —
// - detectorMBps: every `pii` detector plus `promptInjection` over a Korean corpus with personal
//   data mixed in, one core, through the input stage (bench/lib/guardrail-detectors.ts).
// `--smoke` runs each part briefly (a check that it works, not a measurement). Progress goes to
// stderr; stdout gets the summary lines, then one JSON object with `targets`.
import { measureDetectorThroughput } from './lib/guardrail-detectors.ts';

const smoke = process.argv.includes('--smoke');
const log = (...parts: unknown[]) => console.error('[guardrails]', ...parts);
const startedAt = performance.now();

log('detectors: pii (every detector) and promptInjection over the Korean corpus, one core');
const detectors = await measureDetectorThroughput({ seconds: smoke ? 0.3 : 4 });
const { detectorMBps, ...detectorDetails } = detectors;

console.log(
  `detectorMBps ${detectorMBps.value} MB/s (goal ≥ 50): pii alone ${detectorDetails.piiMBps} MB/s, promptInjection alone ${detectorDetails.promptInjectionMBps} MB/s, over ${detectorDetails.messages} messages (${Math.round(detectorDetails.corpusBytes / 1000)} kB)`,
);
console.log(
  JSON.stringify({
    bench: 'guardrails',
    smoke,
    seconds: Math.round((performance.now() - startedAt) / 1000),
    detectors: detectorDetails,
    targets: { detectorMBps },
  }),
);

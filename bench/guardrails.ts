// `npm run bench:guardrails`: what the guardrails cost —
// - detectorMBps: every `pii` detector plus `promptInjection` over a Korean corpus with personal
//   data mixed in, one core, through the input stage (bench/lib/guardrail-detectors.ts);
// - guardrailInvokeP50Overhead and guardrailStreamP99Overhead: invoke p50 (offline model) and
//   stream p99 (a scripted model streaming tokens) at 100 connections with
//   YEOUL_GUARDRAILS=pii,promptInjection against the same server with them off, interleaved in
//   one run (bench/lib/guardrail-overhead.ts).
// `--smoke` runs each part briefly (a check that it works, not a measurement). Progress goes to
// stderr; stdout gets the summary lines, then one JSON object with `targets`.
import { measureDetectorThroughput } from './lib/guardrail-detectors.ts';
import { guardrailOverheadPlans, measureGuardrailOverhead } from './lib/guardrail-overhead.ts';

const smoke = process.argv.includes('--smoke');
const log = (...parts: unknown[]) => console.error('[guardrails]', ...parts);
const startedAt = performance.now();

log('detectors: pii (every detector) and promptInjection over the Korean corpus, one core');
const detectors = await measureDetectorThroughput({ seconds: smoke ? 0.3 : 4 });
const { detectorMBps, ...detectorDetails } = detectors;
const overhead = await measureGuardrailOverhead({
  plan: guardrailOverheadPlans[smoke ? 'smoke' : 'full'],
  env: process.env,
  log,
});
const { guardrailInvokeP50Overhead, guardrailStreamP99Overhead, ...overheadDetails } = overhead;
const invoke = overheadDetails.invoke as { p50Ms: Record<string, number>; offVsOffP50: number };
const stream = overheadDetails.stream as { p99Ms: Record<string, number>; offVsOffP99: number };

console.log(
  `detectorMBps ${detectorMBps.value} MB/s (goal ≥ 50): pii alone ${detectorDetails.piiMBps} MB/s, promptInjection alone ${detectorDetails.promptInjectionMBps} MB/s, over ${detectorDetails.messages} messages (${Math.round(detectorDetails.corpusBytes / 1000)} kB)`,
);
console.log(
  `guardrailInvokeP50Overhead ${guardrailInvokeP50Overhead.value} (goal ≤ 0.03): invoke p50 off ${invoke.p50Ms.off} ms, on ${invoke.p50Ms.on} ms (off against itself ${invoke.offVsOffP50})`,
);
console.log(
  `guardrailStreamP99Overhead ${guardrailStreamP99Overhead.value} (goal ≤ 0.05): stream p99 off ${stream.p99Ms.off} ms, on ${stream.p99Ms.on} ms (off against itself ${stream.offVsOffP99})`,
);
console.log(
  JSON.stringify({
    bench: 'guardrails',
    smoke,
    seconds: Math.round((performance.now() - startedAt) / 1000),
    detectors: detectorDetails,
    overhead: overheadDetails,
    targets: { detectorMBps, guardrailInvokeP50Overhead, guardrailStreamP99Overhead },
  }),
);

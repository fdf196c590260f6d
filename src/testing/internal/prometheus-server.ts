import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedPortUrl } from './closed-port.ts';
import { requireSystemProgram } from './system-programs.ts';

/** A Prometheus server a test started, scraping the test's targets. */
export interface PrometheusServer {
  /** `http://127.0.0.1:PORT`, the HTTP API base (what `YEOUL_PROMETHEUS_URL` holds). */
  url: string;
  /** The scrape job's name (`job` label of every scraped series). */
  job: string;
  /** Resolves once `samples` scrapes of every target have landed (`up == 1` each time). */
  waitForScrapes(samples?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a real Prometheus in a temporary folder on a free loopback port, scraping `targets`
 * (`127.0.0.1:PORT`) every second, and resolves when its HTTP API is ready. The binary is
 * `binary`, else PROMETHEUS_BIN, else Debian's /usr/bin/prometheus, else one on PATH (`npm test`
 * installs Debian's when it can). Rejects with a one-line message naming the install command
 * when it is missing, or when it exits early (its log is quoted).
 * @example
 * const prometheus = await startPrometheus({ targets: ['127.0.0.1:8787'] });
 * await prometheus.waitForScrapes(2);
 */
export async function startPrometheus(options: {
  targets: string[];
  binary?: string;
  job?: string;
}): Promise<PrometheusServer> {
  const binary = requireSystemProgram('prometheus', options.binary);
  const job = options.job ?? 'yeoul-test';
  const directory = await mkdtemp(join(tmpdir(), 'yeoul-prometheus-'));
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    `  - job_name: ${JSON.stringify(job)}`,
    '    static_configs:',
    `      - targets: ${JSON.stringify(options.targets)}`,
    '',
  ].join('\n');
  await writeFile(join(directory, 'prometheus.yml'), config);
  const url = await closedPortUrl();
  const child = spawn(
    binary,
    [
      `--config.file=${join(directory, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(directory, 'data')}`,
      `--web.listen-address=${new URL(url).host}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const close = async () => {
    await stop(child, exited);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await poll(
      async () => (await fetch(`${url}/-/ready`)).ok,
      30_000,
      exited,
      () => log,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url,
    job,
    close,
    async waitForScrapes(samples = 1, timeoutMs = 30_000) {
      const query = `count_over_time(up{job=${JSON.stringify(job)}}[1h]) >= ${samples} and up == 1`;
      await poll(
        async () => {
          const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
          const body = (await response.json()) as { data?: { result?: unknown[] } };
          return (body.data?.result?.length ?? 0) >= options.targets.length;
        },
        timeoutMs,
        exited,
        () => log,
      );
    },
  };
}

/** Retries `check` every 200 ms until it is true; fails on time-out or when Prometheus exits. */
async function poll(
  check: () => Promise<boolean>,
  timeoutMs: number,
  exited: Promise<number | null>,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let stoppedWith: number | null | undefined;
  void exited.then((code) => {
    stoppedWith = code;
  });
  while (Date.now() < deadline) {
    if (stoppedWith !== undefined)
      throw new Error(`Prometheus exited with code ${stoppedWith}: ${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Prometheus was not ready within ${timeoutMs / 1000} s: ${log()}`);
}

async function stop(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killed);
}

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The CLI entry the processes run. */
export const cliPath = join(import.meta.dirname, '..', '..', 'cli.ts');

/** Variables that would make a child reach a real model, a service, or another data folder. */
const inherited = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'OLLAMA_BASE_URL',
  'YEOUL_MODEL',
  'YEOUL_COMPAT_BASE_URL',
  'YEOUL_COMPAT_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GOOGLE_GENERATIVE_AI_BASE_URL',
  'AZURE_API_KEY',
  'AZURE_RESOURCE_NAME',
  'AZURE_BASE_URL',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_ENDPOINT_URL_BEDROCK_RUNTIME',
  'YEOUL_EMBEDDING_MODEL',
  'YEOUL_DATA_DIR',
  'YEOUL_API_KEYS',
  'YEOUL_ADMIN_KEYS',
  'YEOUL_JWT_SECRET',
  'YEOUL_JWT_PUBLIC_KEY',
  'YEOUL_JWT_JWKS',
  'YEOUL_JWT_ISSUER',
  'YEOUL_JWT_AUDIENCE',
  'DATABASE_URL',
  'YEOUL_SEARCH_URL',
  'YEOUL_LOGS',
  'YEOUL_PROMETHEUS_URL',
  'YEOUL_MCP_CONFIG',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OPENWEATHER_API_KEY',
  'TAVILY_API_KEY',
  'NODE_TEST_CONTEXT',
];

/** The environment of a child: offline, no keys, no services, plus `extra`. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'silent' };
  for (const name of inherited) delete env[name];
  return { ...(env as Record<string, string>), ...extra };
}

/** A `yeoul serve` child process. */
export interface ServeProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  /** SIGKILL: the process dies at once, mid-run, as in a crash. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/**
 * Starts `node src/cli.ts serve --port 0 --data DIR` (or `dev`, or another command line)
 * and waits until it listens.
 * @example
 * const server = await startServeProcess(dataDir, { YEOUL_MODEL: 'compat:x', YEOUL_COMPAT_BASE_URL: fake.baseUrl });
 */
export async function startServeProcess(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
  /**
   * `serve` or `dev`; or another command line run in `cwd` that starts the server, given
   * the options after it (e.g. `{argv: ['npm', 'start', '--'], cwd: project}`).
   */
  command: 'serve' | 'dev' | { argv: string[]; cwd?: string } = 'serve',
): Promise<ServeProcess> {
  const [program, ...prefix] =
    typeof command === 'string' ? [process.execPath, cliPath, command] : command.argv;
  // Another command (npm start) starts the server as its own child: signals go to the group.
  const group = typeof command !== 'string';
  const child = spawn(program as string, [...prefix, '--port', '0', '--data', dataDir, ...args], {
    env: childEnv(env),
    stdio: 'pipe',
    detached: group,
    ...(typeof command !== 'string' && command.cwd ? { cwd: command.cwd } : {}),
  });
  const signal = (name: NodeJS.Signals) =>
    group && child.pid !== undefined ? process.kill(-child.pid, name) : child.kill(name);
  child.stdin.on('error', () => undefined);
  child.stdin.end();
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(new Error(`yeoul serve exited (${code}) before listening:\n${output}`)),
    );
  });
  return {
    url,
    child,
    exited,
    async kill() {
      signal('SIGKILL');
      await exited;
    },
    async stop() {
      signal('SIGTERM');
      await exited;
    },
  };
}

/** What a `yeoul` command printed and how it ended. */
export interface YeoulRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node src/cli.ts …` to its end (killed after `timeoutMs`), with `input` on stdin. */
export function runYeoul(
  args: string[],
  options: {
    env?: Record<string, string>;
    input?: string;
    timeoutMs?: number;
    /** Replaces `node src/cli.ts` (another program, e.g. `['npm']`). */
    command?: string[];
    cwd?: string;
  } = {},
): Promise<YeoulRun> {
  const [program, ...prefix] = options.command ?? [process.execPath, cliPath];
  return new Promise((resolve, reject) => {
    const child = spawn(program as string, [...prefix, ...args], {
      env: childEnv(options.env),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A program that exits before reading its input (a refusal, say) closes the pipe: EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** Reads Server-Sent Events from a response until `until` says stop (or the stream ends). */
export async function readEvents(
  response: Response,
  until: (event: { event: string; data: unknown; id?: string }) => boolean = () => false,
): Promise<Array<{ event: string; data: unknown; id?: string }>> {
  const events: Array<{ event: string; data: unknown; id?: string }> = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => !line.startsWith(':') && line.includes(': '))
          .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
      );
      if (fields.event === undefined) continue;
      const event = {
        event: fields.event as string,
        data: JSON.parse((fields.data as string) ?? 'null') as unknown,
        ...(fields.id ? { id: fields.id as string } : {}),
      };
      events.push(event);
      if (until(event)) {
        await reader.cancel();
        return events;
      }
    }
  }
  return events;
}

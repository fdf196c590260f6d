/** The params of one `notifications/progress`. */
export interface ProgressParams {
  [key: string]: unknown;
  progressToken: string | number;
  progress: number;
  message: string;
}

/** Text tokens are reported at most this often; steps and tool calls at once. */
const tokenIntervalMs = 250;
/** How much of the answer so far a progress message carries. */
const tailLength = 200;

/**
 * Turns a run's events into MCP progress notifications: a step starting, a tool call,
 * a tool result, and the answer's text so far (batched). Nothing is sent without a
 * progress token. A notification that cannot be sent is dropped: progress never fails a run.
 */
export function progressReporter(
  token: string | number | undefined,
  send: (params: ProgressParams) => Promise<void>,
) {
  let progress = 0;
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const report = (message: string) => {
    if (token === undefined || stopped) return;
    progress += 1;
    send({ progressToken: token, progress, message }).catch(() => undefined);
  };
  const flushText = () => {
    timer = undefined;
    const tail = text.length > tailLength ? `…${text.slice(-tailLength)}` : text;
    report(`writing: ${tail}`);
  };
  return {
    onEvent(name: string, data: unknown): void {
      if (token === undefined) return;
      const event = (data ?? {}) as {
        node?: string;
        phase?: string;
        name?: string;
        text?: string;
        error?: boolean;
      };
      if (name === 'token' && typeof event.text === 'string') {
        text += event.text;
        timer ??= setTimeout(flushText, tokenIntervalMs);
      } else if (name === 'step' && event.phase === 'start') report(`step: ${event.node}`);
      else if (name === 'tool-call') report(`calling ${event.name}`);
      else if (name === 'tool-result')
        report(`${event.name} ${event.error ? 'failed' : 'answered'}`);
      else if (name === 'interrupt')
        report(`waiting for approval: ${(data as { tool?: string }).tool}`);
    },
    /** Stops reporting (the answer is about to be sent). */
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

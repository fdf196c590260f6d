/** Prometheus counters of the server, rendered in the text exposition format. */
export class Metrics {
  #counters = new Map<string, number>();
  #latencySum = new Map<string, number>();
  #latencyCount = new Map<string, number>();

  /** Adds to a counter with labels. */
  increment(name: string, labels: Record<string, string> = {}, by = 1): void {
    const key = `${name}${renderLabels(labels)}`;
    this.#counters.set(key, (this.#counters.get(key) ?? 0) + by);
  }

  /** Records one HTTP request. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const labels = renderLabels({ route, method, status: String(status) });
    this.increment('yeoul_http_requests_total', { route, method, status: String(status) });
    this.#latencySum.set(labels, (this.#latencySum.get(labels) ?? 0) + seconds);
    this.#latencyCount.set(labels, (this.#latencyCount.get(labels) ?? 0) + 1);
  }

  /** The text exposition format. */
  render(extra: Record<string, number> = {}): string {
    const lines: string[] = [];
    const byName = new Map<string, string[]>();
    for (const [key, value] of this.#counters) {
      const name = key.split('{')[0] as string;
      byName.set(name, [...(byName.get(name) ?? []), `${key} ${value}`]);
    }
    for (const [name, samples] of byName) lines.push(`# TYPE ${name} counter`, ...samples);
    lines.push('# TYPE yeoul_http_request_duration_seconds summary');
    for (const [labels, sum] of this.#latencySum) {
      lines.push(`yeoul_http_request_duration_seconds_sum${labels} ${sum}`);
      lines.push(
        `yeoul_http_request_duration_seconds_count${labels} ${this.#latencyCount.get(labels) ?? 0}`,
      );
    }
    for (const [name, value] of Object.entries(extra))
      lines.push(`# TYPE ${name} gauge`, `${name} ${value}`);
    return `${lines.join('\n')}\n`;
  }
}

function renderLabels(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([key, value]) => `${key}="${value.replace(/["\\\n]/g, '_')}"`).join(',')}}`;
}

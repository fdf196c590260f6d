import type { OutputStream } from './io.ts';

const barWidth = 24;

/**
 * A one-line progress bar redrawn in place (`\r`), for a terminal:
 * `[#########---------------]  3/8  guide.md`.
 */
export function createProgressBar(out: OutputStream) {
  let drawn = false;
  return {
    update(done: number, total: number, label: string) {
      const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
      const counter = `${String(done).padStart(String(total).length)}/${total}`;
      const head = `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${counter}  `;
      const room = Math.max(0, (out.columns || 80) - head.length - 1);
      const shown = label.length > room ? `…${label.slice(label.length - room + 1)}` : label;
      out.write(`\r\x1b[2K${head}${shown}`);
      drawn = true;
    },
    /** Removes the bar, so that a message can be written on a clean line. */
    clear() {
      if (drawn) out.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** One item of a long command as its progress reporter shows it. */
export interface ProgressItem {
  done: number;
  total: number;
  status: string;
  label: string;
  error?: string | undefined;
}

/**
 * A progress bar on a terminal, one line per item elsewhere (`status label`, the status
 * padded to `statusWidth`); failures always get a line. `end()` removes the bar.
 */
export function createProgressReporter(out: OutputStream, statusWidth: number) {
  const bar = out.isTTY ? createProgressBar(out) : undefined;
  const report = (item: ProgressItem) => {
    const failure = item.error ? `: ${item.error.replace(/\s+/g, ' ')}` : '';
    const line = `${item.status.padEnd(statusWidth)} ${item.label}${failure}`;
    if (bar === undefined) out.write(`${line}\n`);
    else {
      if (item.error) {
        bar.clear();
        out.write(`${line}\n`);
      }
      bar.update(item.done, item.total, item.label);
    }
  };
  return Object.assign(report, { end: () => bar?.clear() });
}

import type { ToolCardData } from '../chat/chat-items.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';

/** Arguments as readable JSON (text, never markup). */
export function formatArgs(args: unknown): string {
  if (args === undefined) return '';
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** Long texts scroll inside the card: they can then be reached (and scrolled) by keyboard. */
const scrolls = (text: string) =>
  text.length > 300 || text.split('\n').length > 10 ? 0 : undefined;

/** One tool call: its name, arguments, result or error, and how long it took. */
export function ToolCard(props: { tool: ToolCardData }) {
  const { tool } = props;
  const done = tool.result !== undefined;
  const state = !done ? 'running' : tool.error ? 'error' : 'ok';
  const args = formatArgs(tool.args);
  return html`
    <section class=${`tool-card ${state}`} data-testid="tool-card" data-tool=${tool.name}>
      <header class="tool-head">
        <span class="tool-icon" aria-hidden="true">${state === 'error' ? '✕' : state === 'ok' ? '✓' : '…'}</span>
        <h3 class="tool-name">${t('tool')}: <code>${tool.name}</code></h3>
        <span class="tool-time">
          ${
            !done
              ? t('running')
              : tool.durationMs !== undefined
                ? `${formatNumber(tool.durationMs)} ms`
                : ''
          }
        </span>
      </header>
      ${
        args
          ? html`<div class="tool-part">
              <span class="tool-label">${t('arguments')}</span>
              <pre class="tool-text" tabindex=${scrolls(args)}>${args}</pre>
            </div>`
          : null
      }
      ${
        done
          ? html`<div class="tool-part">
              <span class="tool-label">${tool.error ? t('toolError') : t('result')}</span>
              <pre class="tool-text" tabindex=${scrolls(tool.result ?? '')}>${tool.result}</pre>
            </div>`
          : null
      }
    </section>
  `;
}

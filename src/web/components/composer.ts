import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/api-client.ts';
import { listGraphs } from '../api/graph-list.ts';
import type { ErrorInfo, GraphName } from '../api/types.ts';
import { overLimit, type RequestLimits } from '../chat/message-limit.ts';
import type { RunOptions } from '../chat/run-stream.ts';
import { savedRunOptions, saveRunOptions } from '../chat/saved-state.ts';
import { html } from '../html.ts';
import { formatNumber, t } from '../i18n.ts';
import { useAccess } from './access-context.ts';
import { ErrorView } from './error-view.ts';
import { isSendKey } from './send-key.ts';

interface ComposerProps {
  running: boolean;
  onSend: (text: string, options: RunOptions) => void;
  onStop: () => void;
}

/**
 * The message box (Enter sends, Shift+Enter breaks the line, nothing is sent while a
 * Korean syllable is still being composed), Send or Stop, and the run options. A message
 * surely longer than the server takes is refused here, naming the limit, and stays in the box.
 * Credentials that may not write (no `yeoul:write`) are told the access is read-only, and
 * nothing can be sent.
 */
export function Composer(props: ComposerProps) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<RunOptions>(savedRunOptions);
  // Until the server lists its graphs, the picker offers the saved choice alone.
  const [graphs, setGraphs] = useState<GraphName[]>(() => (options.graph ? [options.graph] : []));
  const [refusal, setRefusal] = useState<ErrorInfo | null>(null);
  const limits = useRef<RequestLimits | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const { write } = useAccess();

  useEffect(() => box.current?.focus(), []);
  // What one request may hold, so an over-long message is refused before it is sent.
  useEffect(() => {
    api
      .status()
      .then((status) => {
        limits.current = status.limits ?? null;
      })
      .catch(() => undefined);
  }, []);
  // Every chat graph the server serves, the config file's included.
  useEffect(() => {
    let live = true;
    listGraphs()
      .then((listed) => {
        if (!live) return;
        const names = listed.filter((graph) => graph.chat).map((graph) => graph.name);
        if (names.length > 0) setGraphs(names);
        // None saved, or one from an earlier config that is gone now: the server's default,
        // which it lists first.
        if (options.graph === undefined || !names.includes(options.graph))
          setOptions((current) => ({ ...current, graph: names[0] }));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => saveRunOptions(options), [options]);

  const send = () => {
    if (!text.trim() || props.running || !write) return;
    const over = limits.current ? overLimit(text, limits.current) : undefined;
    if (over) {
      setRefusal(
        over.limit === 'tokens'
          ? {
              code: 'input_too_long',
              message: t('tooManyTokens', {
                max: formatNumber(over.max),
                tokens: formatNumber(over.tokens),
              }),
            }
          : {
              code: 'payload_too_large',
              message: t('tooManyBytes', { max: formatNumber(over.max) }),
            },
      );
      return;
    }
    setRefusal(null);
    props.onSend(text, options);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!isSendKey(event)) return;
    event.preventDefault();
    send();
  };
  const change = (patch: Partial<RunOptions>) =>
    setOptions((current) => ({ ...current, ...patch }));

  return html`
    <form
      class="composer"
      onSubmit=${(event: Event) => {
        event.preventDefault();
        send();
      }}
    >
      <label class="visually-hidden" for="chat-input">${t('message')}</label>
      <textarea
        id="chat-input"
        ref=${box}
        data-testid="chat-input"
        rows="2"
        placeholder=${t('placeholder')}
        aria-describedby=${write ? undefined : 'read-only-notice'}
        value=${text}
        onInput=${(event: Event) => {
          setText((event.target as HTMLTextAreaElement).value);
          if (refusal) setRefusal(null);
        }}
        onKeyDown=${onKeyDown}
      ></textarea>
      ${
        write
          ? null
          : html`<p class="read-only-notice" id="read-only-notice" data-testid="read-only" role="status">
              ${t('readOnly')}
            </p>`
      }
      ${refusal ? html`<${ErrorView} error=${refusal} />` : null}
      <div class="composer-bar">
        <fieldset class="run-options">
          <legend class="visually-hidden">${t('options')}</legend>
          <label>
            ${t('graph')}
            <select
              data-testid="graph-select"
              value=${options.graph}
              onChange=${(event: Event) =>
                change({ graph: (event.target as HTMLSelectElement).value as GraphName })}
            >
              ${graphs.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
            </select>
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked=${options.evaluate}
              onChange=${(event: Event) =>
                change({ evaluate: (event.target as HTMLInputElement).checked })}
            />
            ${t('evaluate')}
          </label>
          <label>
            ${t('temperature')}
            <input
              type="number"
              class="temperature"
              min="0"
              max="2"
              step="0.1"
              placeholder=${t('defaultValue')}
              value=${options.temperature ?? ''}
              onInput=${(event: Event) => {
                const value = (event.target as HTMLInputElement).value;
                change({ temperature: value === '' ? null : Number(value) });
              }}
            />
          </label>
        </fieldset>
        ${
          props.running
            ? html`<button type="button" class="danger" data-testid="stop" onClick=${props.onStop}>
                ■ ${t('stop')}
              </button>`
            : html`<button type="submit" class="primary" data-testid="send" disabled=${!text.trim() || !write}>
                ${t('send')} ➤
              </button>`
        }
      </div>
    </form>
  `;
}

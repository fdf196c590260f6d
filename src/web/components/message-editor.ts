import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from '../html.ts';
import { t } from '../i18n.ts';
import { isSendKey } from './send-key.ts';

interface MessageEditorProps {
  initial: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}

/**
 * A user message opened for editing, in place: as in the composer, Enter saves and
 * Shift+Enter breaks the line (never while a Korean syllable is being composed);
 * Escape cancels.
 */
export function MessageEditor(props: MessageEditorProps) {
  const [text, setText] = useState(props.initial);
  const box = useRef<HTMLTextAreaElement>(null);
  // Before the first paint, so the caret is at the end before anyone can type or select.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);

  const save = () => {
    if (text.trim()) props.onSave(text);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onCancel();
      return;
    }
    if (!isSendKey(event)) return;
    event.preventDefault();
    save();
  };

  return html`
    <form
      class="message-editor"
      onSubmit=${(event: Event) => {
        event.preventDefault();
        save();
      }}
    >
      <textarea
        ref=${box}
        data-testid="edit-input"
        rows="2"
        aria-label=${t('editMessageLabel')}
        title=${t('editHint')}
        value=${text}
        onInput=${(event: Event) => setText((event.target as HTMLTextAreaElement).value)}
        onKeyDown=${onKeyDown}
      ></textarea>
      <div class="message-editor-bar">
        <button type="button" data-testid="edit-cancel" onClick=${props.onCancel}>
          ${t('cancel')}
        </button>
        <button type="submit" class="primary" data-testid="edit-save" disabled=${!text.trim()}>
          ${t('save')}
        </button>
      </div>
    </form>
  `;
}

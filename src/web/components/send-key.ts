/**
 * Whether a key press in a message box sends it: Enter without Shift (Shift+Enter breaks
 * the line), and never while an input method is still composing a syllable (Korean).
 */
export function isSendKey(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229;
}

/**
 * Joins the `token` events of one run that arrive in the same turn of the event loop into
 * one event: a provider chunk often carries several deltas, and every event costs an SSE
 * write, an id and a JSON round trip on its way to the client. Any other event first
 * sends the text gathered so far, so the order of events never changes.
 */
export function coalesceTokens(emit: (name: string, data: unknown) => void): {
  emit: (name: string, data: unknown) => void;
  /** Sends what is gathered now (before the run's last event). */
  flush: () => void;
} {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    emit('token', { text });
  };
  return {
    emit(name, data) {
      if (name === 'token') {
        pending += (data as { text?: string }).text ?? '';
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
        return;
      }
      flush();
      emit(name, data);
    },
    flush,
  };
}

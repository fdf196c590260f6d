/** The thread the ops loop of a session keeps its own state on (`#` never occurs in session ids). */
export function opsThreadOf(sessionId: string): string {
  return `${sessionId}#ops`;
}

/** The session a thread belongs to: itself, or the session of its ops loop (`opsThreadOf`). */
export function sessionOfThread(threadId: string): string {
  return threadId.split('#')[0] as string;
}

/** Whether the thread is a session's conversation (not its ops loop). */
export function isSessionThread(threadId: string): boolean {
  return !threadId.includes('#');
}

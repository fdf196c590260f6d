import { useEffect, useRef, useState } from 'preact/hooks';
import { YeoulApiError } from '../../client/index.ts';
import { api, toErrorInfo } from '../api/api-client.ts';
import { builtinGraphNames } from '../api/graph-list.ts';
import type { ErrorInfo, Interrupt, SessionDetail } from '../api/types.ts';
import { t } from '../i18n.ts';
import {
  type AssistantItem,
  applyEvent,
  type ChatItem,
  itemKey,
  startTurn,
  withBlockedUsers,
} from './chat-items.ts';
import { itemsFromMessages } from './items-from-messages.ts';
import { shortened } from './message-limit.ts';
import {
  joinRun,
  type RunEvents,
  type RunOptions,
  streamDecisions,
  streamMessage,
} from './run-stream.ts';
import {
  newSessionId,
  optionsForSession,
  savedRunOptions,
  savedSessionId,
  saveSessionId,
} from './saved-state.ts';
import { forgetSessionHistory } from './session-history.ts';
import { forkPointBefore } from './turn-steps.ts';

/** What the chat view needs: the conversation, and the actions on it. */
export interface ChatController {
  sessionId: string;
  items: ChatItem[];
  summary: string;
  running: boolean;
  notice: ErrorInfo | null;
  /** The assistant item the inspector shows, if any. */
  inspectKey: string | null;
  /** Goes up after every run and deletion: lists and the status bar reload. */
  runsVersion: number;
  send(text: string, options: RunOptions): void;
  /**
   * Time travel: runs `text` on a fork of the session taken before the user message `key`
   * (edit: new text; regenerate: the same text again). The view moves to the fork; the
   * original is left as it was. A fork that fails shows why and changes nothing.
   */
  askOnFork(key: string, text: string): Promise<void>;
  stop(): void;
  decide(key: string, interrupt: Interrupt, approve: boolean, reason?: string): void;
  openSession(id: string): void;
  newSession(): void;
  deleteSession(id: string): Promise<void>;
  inspect(key: string | null): void;
}

interface QueuedEvent {
  key: string;
  event: string;
  data: unknown;
  at: number;
}

/**
 * The conversation of one session: sends messages and decisions, streams the runs into
 * the items (batched per animation frame), stops runs, and on load returns to the saved
 * session, rejoining its run when one is still going. `authVersion` reloads after a key.
 */
export function useChat(authVersion: number): ChatController {
  const [sessionId, setSessionId] = useState(() => savedSessionId() ?? newSessionId());
  const [items, setItemsState] = useState<ChatItem[]>([]);
  const [summary, setSummary] = useState('');
  const [notice, setNotice] = useState<ErrorInfo | null>(null);
  const [inspectKey, setInspectKey] = useState<string | null>(null);
  const [runsVersion, setRunsVersion] = useState(0);
  const itemsRef = useRef(items);
  const sessionRef = useRef(sessionId);
  const active = useRef<{ controller: AbortController; key: string } | null>(null);
  const queue = useRef<QueuedEvent[]>([]);
  const scheduled = useRef(false);
  /** The options of the last message sent, and the graph of the loaded session: a fork's run uses them. */
  const lastOptions = useRef<RunOptions | null>(null);
  const sessionGraph = useRef<string | undefined>(undefined);
  const forking = useRef(false);

  const setItems = (update: (current: ChatItem[]) => ChatItem[]) => {
    itemsRef.current = update(itemsRef.current);
    setItemsState(itemsRef.current);
  };
  const updateTurn = (key: string, update: (item: AssistantItem) => AssistantItem) =>
    setItems((current) =>
      current.map((item) => (item.kind === 'assistant' && item.key === key ? update(item) : item)),
    );
  /** The refused turn `key` and the message it answers: shown shortened, with no actions. */
  const markUnsent = (key: string) => {
    setInspectKey((inspected) => (inspected === key ? null : inspected));
    setItems((current) => {
      const at = current.findIndex((item) => item.kind === 'assistant' && item.key === key);
      return current.map((item, index) => {
        if (index === at && item.kind === 'assistant') return { ...item, unsent: true };
        if (index === at - 1 && item.kind === 'user') {
          return { ...item, text: shortened(item.text), unsent: true };
        }
        return item;
      });
    });
  };
  const turnOf = (key: string) =>
    itemsRef.current.find(
      (item): item is AssistantItem => item.kind === 'assistant' && item.key === key,
    );

  const flush = () => {
    scheduled.current = false;
    const events = queue.current;
    queue.current = [];
    if (events.length === 0) return;
    setItems((current) =>
      withBlockedUsers(
        current.map((item) => {
          if (item.kind !== 'assistant') return item;
          let next = item;
          for (const queued of events) {
            if (queued.key !== item.key) continue;
            next = applyEvent(next, queued.event, queued.data, queued.at);
          }
          return next;
        }),
      ),
    );
  };
  const enqueue = (event: QueuedEvent) => {
    queue.current.push(event);
    if (!scheduled.current) {
      scheduled.current = true;
      requestAnimationFrame(flush);
    }
  };

  /** Reads a run into the turn `key` (the client rejoins it when the connection drops). */
  const runStream = async (id: string, key: string, start: (signal: AbortSignal) => RunEvents) => {
    const controller = new AbortController();
    active.current = { controller, key };
    let finished = false;
    let received = 0;
    try {
      for await (const event of start(controller.signal)) {
        received += 1;
        enqueue({ key, event: event.event, data: event.data, at: Date.now() });
        if (event.event === 'done') finished = true;
      }
    } catch (error) {
      if (error instanceof YeoulApiError && error.code === 'no_active_run') {
        // The run ended while we were away: what it left is in the session.
        if (sessionRef.current === id) await load(id, false);
      } else if (!controller.signal.aborted) {
        updateTurn(key, (item) => ({ ...item, errors: [...item.errors, toErrorInfo(error)] }));
        // Refused before any event: nothing was stored, so the turn offers nothing to redo.
        if (error instanceof YeoulApiError && received === 0) markUnsent(key);
      }
    } finally {
      flush();
      updateTurn(key, (item) =>
        item.running
          ? {
              ...item,
              running: false,
              ...(controller.signal.aborted ? { status: 'cancelled' } : {}),
            }
          : item,
      );
      if (active.current?.controller === controller) active.current = null;
      if (sessionRef.current === id) {
        setRunsVersion((version) => version + 1);
        if (finished) setInspectKey(key);
      }
    }
  };

  const load = async (id: string, rejoin: boolean) => {
    try {
      const detail: SessionDetail = await api.sessions.get(id);
      if (sessionRef.current !== id) return;
      sessionGraph.current = detail.graph;
      setSummary(detail.summary ?? '');
      let next = itemsFromMessages(detail.messages ?? [], detail.interrupts ?? []);
      if (rejoin && (detail.running ?? detail.status === 'running')) {
        const last = next.at(-1);
        const turn =
          last?.kind === 'assistant'
            ? { ...last, running: true, text: '', guardrails: [] }
            : startTurn(last?.kind === 'user' ? last.text : '', last?.messageId);
        next = last?.kind === 'assistant' ? [...next.slice(0, -1), turn] : [...next, turn];
        setItems(() => next);
        void runStream(id, turn.key, (signal) => joinRun(id, signal));
        return;
      }
      setItems(() => next);
    } catch (error) {
      if (sessionRef.current !== id) return;
      if (error instanceof YeoulApiError && error.status === 404) {
        // The saved session is gone (deleted elsewhere): start a new one.
        saveSessionId(null);
        switchTo(newSessionId());
      } else setNotice(toErrorInfo(error));
    }
  };

  const switchTo = (id: string) => {
    active.current?.controller.abort();
    active.current = null;
    queue.current = [];
    forgetSessionHistory();
    sessionGraph.current = undefined;
    lastOptions.current = null;
    sessionRef.current = id;
    setSessionId(id);
    setItems(() => []);
    setSummary('');
    setNotice(null);
    setInspectKey(null);
  };

  // Returns to the saved session on load, and again once a key is given.
  useEffect(() => {
    if (savedSessionId() === sessionRef.current) void load(sessionRef.current, true);
  }, [authVersion]);

  const running = items.some((item) => item.kind === 'assistant' && item.running);

  /** Sends a message on session `id` as a new streamed turn. */
  const start = (id: string, message: string, options: RunOptions) => {
    lastOptions.current = options;
    saveSessionId(id);
    const turn = startTurn(message);
    setItems((current) => [
      ...current,
      { kind: 'user', key: itemKey('user'), text: message },
      turn,
    ]);
    setNotice(null);
    setInspectKey(turn.key);
    void runStream(id, turn.key, (signal) => streamMessage(message, id, options, signal));
  };

  const askOnFork = async (key: string, text: string) => {
    const message = text.trim();
    if (!message || running || forking.current) return;
    const users = itemsRef.current.filter((item) => item.kind === 'user');
    const index = users.findIndex((item) => item.key === key);
    const user = users[index];
    if (user === undefined) return;
    const original = sessionRef.current;
    const chosen = lastOptions.current ?? savedRunOptions();
    const graphOfSession = sessionGraph.current;
    forking.current = true;
    try {
      const options = optionsForSession(chosen, graphOfSession, await builtinGraphNames());
      const { steps } = await api.sessions.history(original);
      const atStep = forkPointBefore(steps, {
        ...(user.messageId ? { userMessageId: user.messageId } : {}),
        userText: user.text,
        fromEnd: users.length - 1 - index,
      });
      if (atStep === undefined) {
        setNotice({ code: 'fork_point_unknown', message: '' });
        return;
      }
      const fork = await api.sessions.fork(original, { atStep, sessionId: newSessionId() });
      if (sessionRef.current !== original) return;
      switchTo(fork.sessionId);
      saveSessionId(fork.sessionId);
      setRunsVersion((version) => version + 1);
      await load(fork.sessionId, false);
      if (sessionRef.current === fork.sessionId) start(fork.sessionId, message, options);
    } catch (error) {
      if (sessionRef.current !== original) return;
      const info = toErrorInfo(error);
      setNotice({ ...info, message: `${t('forkFailed')} ${info.message}` });
    } finally {
      forking.current = false;
    }
  };

  return {
    sessionId,
    items,
    summary,
    running,
    notice,
    inspectKey,
    runsVersion,
    send(text, options) {
      const message = text.trim();
      if (!message || running) return;
      start(sessionRef.current, message, options);
    },
    askOnFork,
    stop() {
      const current = active.current;
      if (!current) return;
      api.sessions.cancel(sessionRef.current).catch(() =>
        // The server could not stop it by name: dropping the stream does.
        current.controller.abort(),
      );
    },
    decide(key, interrupt, approve, reason) {
      const decision = {
        id: interrupt.id,
        tool: interrupt.tool,
        approve,
        ...(reason ? { reason } : {}),
      };
      updateTurn(key, (item) => ({
        ...item,
        interrupts: item.interrupts.filter((pending) => pending.id !== interrupt.id),
        decisions: [...item.decisions, decision],
      }));
      const turn = turnOf(key);
      if (!turn || turn.interrupts.length > 0) return; // the rest are decided together
      const unsent = turn.decisions.filter((made) => !made.sent);
      updateTurn(key, (item) => ({
        ...item,
        running: true,
        status: undefined,
        decisions: item.decisions.map((made) => ({ ...made, sent: true })),
      }));
      const id = sessionRef.current;
      const decisions = unsent.map(({ id: interruptId, approve: yes, reason: why }) => ({
        id: interruptId,
        approve: yes,
        ...(why ? { reason: why } : {}),
      }));
      void runStream(id, key, (signal) => streamDecisions(id, decisions, signal));
    },
    openSession(id) {
      if (id === sessionRef.current && items.length > 0) return;
      switchTo(id);
      saveSessionId(id);
      void load(id, true);
    },
    newSession() {
      switchTo(newSessionId());
      saveSessionId(null);
    },
    async deleteSession(id) {
      try {
        await api.sessions.delete(id);
      } catch (error) {
        setNotice(toErrorInfo(error));
      }
      if (id === sessionRef.current) {
        switchTo(newSessionId());
        saveSessionId(null);
      }
      setRunsVersion((version) => version + 1);
    },
    inspect: setInspectKey,
  };
}

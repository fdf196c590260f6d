/** One event of a run's stream, with the SSE id clients resume from. */
export interface StreamEvent {
  id: string;
  event: string;
  data: unknown;
  /**
   * A `token`'s answer: the id its text is stored under (announced by the run's
   * `answer-start`), for surfaces that name the message as it streams. Not part of the event
   * clients of the run's stream get.
   */
  answerId?: string;
}

type Listener = (event: StreamEvent) => void;

/** A run's events that a client can follow: the ones after `lastEventId`, then live ones. */
export interface FollowableStream {
  /** Hands over events after `lastEventId`, then live ones; `onEnd` once no more will come. Returns the stop. */
  follow(lastEventId: string | undefined, onEvent: Listener, onEnd: () => void): () => void;
}

/**
 * Where runs record their events and where clients join them: in this process
 * (`RunStreams`), or relayed through a database so that any instance can serve a joiner.
 */
export interface RunStreamHub {
  /**
   * A stream for a new run of the session (or a paused run going on: its events are numbered
   * from `firstN`, past those of its earlier part).
   */
  open(sessionId: string, runKey: string, firstN?: number): RunStream;
  /** Ends a run's stream (its events stay a while for late reconnections). */
  finish(stream: RunStream): void;
  /**
   * The session's run a client may join: the one going, or a finished one that
   * `lastEventId` names (to get what it missed); undefined when there is none.
   */
  joinable(
    sessionId: string,
    lastEventId: string | undefined,
  ): FollowableStream | undefined | Promise<FollowableStream | undefined>;
  /** Stops background work (a relay's last writes). */
  close?(): Promise<void>;
}

/** How long a finished run's events stay for a client that reconnects with Last-Event-ID. */
const keepFinishedMs = 60_000;
/** How many finished runs' events are kept at most (the oldest go first), so memory stays bounded under load. */
const keepFinishedRuns = 500;

/**
 * The events of one run, numbered `<key>:<n>`, kept so that a client that dropped can
 * join again and get what it missed, then the rest live.
 */
export class RunStream implements FollowableStream {
  readonly key: string;
  readonly sessionId: string;
  /** The number of the stream's first event (1, or past the earlier part of a paused run). */
  readonly firstN: number;
  readonly events: StreamEvent[] = [];
  finished = false;
  #listeners = new Set<Listener>();
  #endListeners = new Set<() => void>();
  #onFirstEvent: () => void;

  constructor(key: string, sessionId: string, onFirstEvent: () => void, firstN = 1) {
    this.key = key;
    this.sessionId = sessionId;
    this.#onFirstEvent = onFirstEvent;
    this.firstN = firstN;
  }

  /** Records an event (a `token` with the id of the answer it belongs to) and hands it to every listener. */
  push(event: string, data: unknown, answerId?: string): StreamEvent {
    if (this.events.length === 0) this.#onFirstEvent();
    const id = `${this.key}:${this.firstN + this.events.length}`;
    const entry: StreamEvent =
      answerId === undefined ? { id, event, data } : { id, event, data, answerId };
    this.events.push(entry);
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** Whether `lastEventId` names an event of this run. */
  owns(lastEventId: string | undefined): boolean {
    return lastEventId?.startsWith(`${this.key}:`) === true;
  }

  /**
   * Hands over the events after `lastEventId` (all of them when it names another run),
   * then live ones; `onEnd` runs once no more will come. Returns the function that stops.
   */
  follow(lastEventId: string | undefined, onEvent: Listener, onEnd: () => void): () => void {
    const seen = this.owns(lastEventId) ? Number(lastEventId?.split(':').at(-1)) || 0 : 0;
    const after = Math.max(seen - this.firstN + 1, 0);
    for (const entry of this.events.slice(after)) onEvent(entry);
    if (this.finished) {
      onEnd();
      return () => undefined;
    }
    this.#listeners.add(onEvent);
    this.#endListeners.add(onEnd);
    return () => {
      this.#listeners.delete(onEvent);
      this.#endListeners.delete(onEnd);
    };
  }

  /** No more events will come. */
  finish(): void {
    this.finished = true;
    this.#listeners.clear();
    for (const onEnd of this.#endListeners) onEnd();
    this.#endListeners.clear();
  }
}

/** The runs of each session in this process: the one going now, or the last one for a minute. */
export class RunStreams implements RunStreamHub {
  #current = new Map<string, RunStream>();
  /** Finished streams still kept, oldest first, with when they finished. */
  #finished: Array<{ stream: RunStream; at: number }> = [];

  /** A stream for a new run; it becomes the session's current one when its first event comes. */
  open(sessionId: string, runKey: string, firstN = 1): RunStream {
    const stream: RunStream = new RunStream(
      runKey,
      sessionId,
      () => {
        this.#current.set(sessionId, stream);
      },
      firstN,
    );
    return stream;
  }

  /**
   * Ends a run's stream; its events stay a minute for late reconnections — at most the last
   * 500 finished runs, so a busy server does not hold a minute of every run's tokens.
   */
  finish(stream: RunStream): void {
    stream.finish();
    const now = Date.now();
    this.#finished.push({ stream, at: now });
    let drop = 0;
    while (
      drop < this.#finished.length &&
      (this.#finished.length - drop > keepFinishedRuns ||
        (this.#finished[drop]?.at ?? now) < now - keepFinishedMs)
    ) {
      const old = (this.#finished[drop] as { stream: RunStream }).stream;
      if (this.#current.get(old.sessionId) === old) this.#current.delete(old.sessionId);
      drop += 1;
    }
    if (drop > 0) this.#finished.splice(0, drop);
  }

  /** The session's current run stream, going or recently finished. */
  current(sessionId: string): RunStream | undefined {
    return this.#current.get(sessionId);
  }

  joinable(sessionId: string, lastEventId: string | undefined): RunStream | undefined {
    const stream = this.#current.get(sessionId);
    if (stream === undefined || (stream.finished && !stream.owns(lastEventId))) return undefined;
    return stream;
  }
}

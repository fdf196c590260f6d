import { createId, isYeoulError } from '../../core/index.ts';
import { anonymousOwner } from '../../identity/index.ts';
import { HttpError } from '../http/http-error.ts';
import type { Runtime } from '../runtime/create-runtime.ts';
import { forkSession } from '../sessions/fork-session.ts';
import type { ResponseBody } from './response-request.ts';
import type { StoredResponse } from './response-store.ts';
import type { ResponseTurn } from './response-turn.ts';

/** Where a response's turn runs: a session (new, continued or forked), or none (`store: false`). */
export interface ResponsePlace {
  sessionId: string | null;
  /** The response it continues (`previous_response_id`), as stored. */
  previous?: StoredResponse;
  /** The session is new: the turn's earlier messages become its history. */
  fresh: boolean;
}

/**
 * Finds the session a Responses request continues: `previous_response_id`'s (on a fork
 * taken after it when the session went on since — unless the request decides approvals or
 * returns outputs, which always go to the paused run itself), `conversation`'s, or a new one;
 * none with `store: false`. Another owner's response or conversation is as unknown (404).
 */
export async function placeOfResponse(
  runtime: Runtime,
  owner: string,
  body: ResponseBody,
  turn: ResponseTurn,
): Promise<ResponsePlace> {
  const previousId = body.previous_response_id ?? undefined;
  const conversation = body.conversation ?? undefined;
  if (previousId !== undefined && conversation !== undefined) {
    throw new HttpError({
      status: 400,
      code: 'invalid_request',
      message: 'previous_response_id and conversation: name one of them, not both',
      details: { param: 'conversation' },
    });
  }
  if (body.store === false && (previousId !== undefined || conversation !== undefined)) {
    throw new HttpError({
      status: 400,
      code: 'unsupported_parameter',
      message: 'store: false keeps nothing, so it cannot continue a response or a conversation',
      details: { param: 'store' },
    });
  }
  const continuing = turn.decisions.length > 0 || turn.outputs.length > 0;
  if (previousId !== undefined) {
    const previous = await runtime.responses.get(previousId);
    if (previous === undefined || previous.owner !== owner) {
      throw new HttpError({
        status: 404,
        code: 'previous_response_not_found',
        message: `Previous response with id '${previousId}' not found.`,
        details: { param: 'previous_response_id' },
      });
    }
    const graph = await runtime.runner.threadGraph(previous.sessionId);
    const state = await graph.getState(previous.sessionId);
    if (continuing || state === undefined || state.seq - 1 === previous.step) {
      return { sessionId: previous.sessionId, previous, fresh: false };
    }
    const fork = await forkSession(runtime, {
      from: previous.sessionId,
      atStep: previous.step,
      owner,
    });
    return { sessionId: fork.sessionId, previous, fresh: false };
  }
  if (conversation !== undefined) {
    const sessionId = typeof conversation === 'string' ? conversation : conversation.id;
    if (!(await isConversationOf(runtime, sessionId, owner))) throw conversationNotFound(sessionId);
    return { sessionId, fresh: false };
  }
  if (continuing) {
    throw new HttpError({
      status: 400,
      code: 'invalid_request',
      message:
        'input: function_call_output and mcp_approval_response items need the previous_response_id (or conversation) they answer',
      details: { param: 'input' },
    });
  }
  return { sessionId: body.store === false ? null : createId(), fresh: true };
}

/** Whether `sessionId` is a session of `owner` (a thread nobody registered is the anonymous owner's). */
export async function isConversationOf(
  runtime: Runtime,
  sessionId: string,
  owner: string,
): Promise<boolean> {
  let holder: string | undefined;
  try {
    holder = await runtime.sessions.ownerOf(sessionId);
  } catch (error) {
    if (isYeoulError(error) && error.code === 'invalid_request') return false;
    throw error;
  }
  if (holder !== undefined) return holder === owner;
  if (owner !== anonymousOwner) return false;
  const graph = await runtime.runner.threadGraph(sessionId);
  return (await graph.getState(sessionId)) !== undefined;
}

/** The 404 of a conversation that does not exist, or is another owner's. */
export function conversationNotFound(sessionId: string): HttpError {
  return new HttpError({
    status: 404,
    code: 'conversation_not_found',
    message: `Conversation with id '${sessionId}' not found.`,
  });
}

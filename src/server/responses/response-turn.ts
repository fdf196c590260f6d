import type { ApprovalDecision, ClientToolOutput } from '../../agents/index.ts';
import type { ChatMessage, ModelTool } from '../../models/index.ts';
import { HttpError } from '../http/http-error.ts';
import { type InputItem, type ResponseBody, textOfContent } from './response-request.ts';

/** What a Responses request asks of the agent. */
export interface ResponseTurn {
  /** The new user message (absent when the request only decides or returns outputs). */
  message?: string;
  /** The messages before it: the history of a new session. */
  history: ChatMessage[];
  /** `mcp_approval_response` items as decisions. */
  decisions: ApprovalDecision[];
  /** `function_call_output` items, by the call's id. */
  outputs: ClientToolOutput[];
  /** `instructions` and the system and developer messages: for this response only. */
  instructions?: string;
  clientTools: ModelTool[];
}

/**
 * Reads a request's `input` and tools: messages (the last a user's: the new turn), outputs
 * of the caller's tools and approval decisions (which continue a paused run, alone).
 */
export function responseTurnOf(body: ResponseBody): ResponseTurn {
  const items: InputItem[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const messages: ChatMessage[] = [];
  const decisions: ApprovalDecision[] = [];
  const outputs: ClientToolOutput[] = [];
  const instructions = body.instructions ? [body.instructions] : [];
  for (const item of items) {
    if (item.type === 'function_call_output') {
      outputs.push({ id: item.call_id, output: textOfContent(item.output) });
    } else if (item.type === 'mcp_approval_response') {
      decisions.push({
        id: item.approval_request_id,
        approve: item.approve,
        ...(item.reason ? { reason: item.reason } : {}),
      });
    } else if (item.role === 'system' || item.role === 'developer') {
      instructions.push(textOfContent(item.content));
    } else {
      messages.push({ role: item.role, content: textOfContent(item.content) });
    }
  }
  const clientTools =
    body.tool_choice === 'none'
      ? []
      : (body.tools ?? []).map((tool) => ({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.parameters ?? { type: 'object', properties: {} },
        }));
  const base = {
    history: [],
    decisions,
    outputs,
    clientTools,
    ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
  };
  if (decisions.length > 0 || outputs.length > 0) {
    if (messages.length > 0) {
      throw invalid(
        'function_call_output and mcp_approval_response items continue a paused response: send them without messages',
      );
    }
    return base;
  }
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw invalid('the last message of input must be the user’s: it is the turn to answer');
  }
  return { ...base, message: last.content, history: messages.slice(0, -1) };
}

function invalid(message: string): HttpError {
  return new HttpError({
    status: 400,
    code: 'invalid_request',
    message: `input: ${message}`,
    details: { param: 'input' },
  });
}

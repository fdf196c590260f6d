import type { AgentResponse } from '../../agents/index.ts';

const hangul = /[\uac00-\ud7a3]/;

/**
 * What a client without Approve / Deny buttons (an OpenAI or MCP client) is told under
 * the paused run's answer: each call that waits, and how to decide it — over HTTP, in the
 * web console, or on a terminal. In the answer's language (Korean or English).
 * @example
 * `${payload.response}\n\n${approvalNotice(payload, sessionId)}`
 */
export function approvalNotice(payload: AgentResponse, sessionId: string): string {
  const pending = payload.interrupts ?? [];
  const calls = pending.map(
    (call) => `- ${call.tool} ${JSON.stringify(call.args)} (id ${call.id})`,
  );
  const body = JSON.stringify({
    sessionId,
    resume: { decisions: pending.map((call) => ({ id: call.id, approve: true })) },
  });
  if (hangul.test(payload.response)) {
    return [
      ...calls,
      '',
      `결정하려면 POST /api/agent/invoke 에 ${body} 를 보내세요 (거부는 "approve": false).`,
      `웹 콘솔에서 세션 ${sessionId} 을 열거나 \`yeoul chat --session ${sessionId}\` 로도 결정할 수 있습니다.`,
    ].join('\n');
  }
  return [
    ...calls,
    '',
    `To decide, send POST /api/agent/invoke with ${body} ("approve": false denies).`,
    `You can also open session ${sessionId} in the web console, or run \`yeoul chat --session ${sessionId}\`.`,
  ].join('\n');
}

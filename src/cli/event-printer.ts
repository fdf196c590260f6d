import type { AgentResponse, Evaluation } from '../agents/index.ts';
import type { OutputStream } from './io.ts';

const maxDetailLength = 240;

/**
 * Shows a run as it happens: answer tokens as they arrive, each tool call, tool result
 * and evaluation on a line of its own. `finish` prints the final answer only when the
 * stream did not already show it (nothing streamed, or the ops loop changed it).
 */
export function createEventPrinter(out: OutputStream) {
  let lineOpen = false;
  let answer = '';
  let lastAnswer = '';

  const line = (text: string) => {
    if (lineOpen) out.write('\n');
    out.write(`${text}\n`);
    lineOpen = false;
  };

  const onEvent = (name: string, data: unknown) => {
    if (name === 'token') {
      const text = (data as { text?: unknown }).text;
      if (typeof text !== 'string' || text === '') return;
      out.write(text);
      answer += text;
      lineOpen = !text.endsWith('\n');
    } else if (name === 'step') {
      // Tokens come from one node; a new step starts a new answer (a retry, or none).
      if (answer.trim() !== '') lastAnswer = answer;
      answer = '';
    } else if (name === 'tool-call') {
      const call = data as { name: string; args: unknown };
      line(`  → ${call.name} ${oneLine(JSON.stringify(call.args) ?? '')}`);
    } else if (name === 'tool-result') {
      const result = data as { name: string; result: unknown; error?: unknown };
      const text =
        typeof result.result === 'string' ? result.result : JSON.stringify(result.result);
      line(`  ${result.error ? '✗' : '←'} ${result.name}: ${oneLine(text ?? '')}`);
    } else if (name === 'evaluation') {
      const evaluation = data as Evaluation;
      const checks = evaluation.checks.map((check) => `${check.name} ${round(check.score)}`);
      line(`  ≈ evaluation ${round(evaluation.score)} (${checks.join(', ')})`);
    }
  };

  const finish = (payload: AgentResponse) => {
    const streamed = answer.trim() !== '' ? answer : lastAnswer;
    if (payload.response.trim() !== streamed.trim()) line(payload.response);
    else if (lineOpen) {
      out.write('\n');
      lineOpen = false;
    }
    answer = '';
    lastAnswer = '';
  };

  /** Ends a line the stream left open (before an error message, say). */
  const breakLine = () => {
    if (lineOpen) out.write('\n');
    lineOpen = false;
    answer = '';
    lastAnswer = '';
  };

  return { onEvent, finish, breakLine };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxDetailLength ? `${flat.slice(0, maxDetailLength - 1)}…` : flat;
}

function round(score: number): string {
  return score.toFixed(2).replace(/\.?0+$/, '') || '0';
}

import { isKorean } from '../prompts.ts';
import type { AssessedCheck, CheckResult, EvaluationInput } from './evaluation-types.ts';
import { quantitiesIn } from './read-numbers.ts';
import { deniesFindings, type StatedCount, statedCounts } from './stated-counts.ts';
import { readToolFacts, type ToolFacts } from './tool-facts.ts';

const passed = (): CheckResult => ({ name: 'grounding', score: 1, passed: true, feedback: '' });

/**
 * (a) Grounding, the ops evaluation's central check: every count and number the answer states must
 * agree with what the tools returned (format-insensitive: 4건 = 4 events = four; 56088 =
 * 56,088). A count ("17건", "17 events") is checked against the `count` of the log
 * searches — never against digits inside timestamps, ids, ports or paths; other numbers
 * against the quantities the results, the documents and the question state. A wrong count
 * is `contradicted` (feedback "실제 이벤트 수는 N건입니다"); denying events the tools found
 * is `ungrounded`. Not applicable (passes) when there was nothing to check against.
 */
export function assessGrounding(
  input: EvaluationInput,
  facts: ToolFacts = readToolFacts(input.toolResults),
): AssessedCheck {
  if (input.toolResults.length === 0 && input.context.trim() === '') {
    return { check: passed(), finding: 'fine' };
  }
  const korean = isKorean(input.question);
  const questionNumbers = quantitiesIn(input.question);
  const statuses = new Set([
    ...facts.statuses,
    ...questionNumbers.filter((number) => number >= 100 && number < 600),
  ]);
  const counts = statedCounts(input.answer, statuses);
  const searched = facts.counts.length > 0;
  const countFits = (count: StatedCount) =>
    facts.counts.includes(count.value) ||
    facts.listed.includes(count.value) ||
    facts.tallies.includes(count.value) ||
    (count.shown && count.value <= Math.max(...facts.listed, ...facts.counts));
  const found = facts.counts.some((count) => count > 0);
  const statesRightCount = counts.some((count) => !count.shown && countFits(count));

  if (searched && found && !statesRightCount) {
    const denies =
      deniesFindings(input.answer) ||
      counts.some((count) => count.value === 0 && !countFits(count));
    if (denies) {
      return {
        check: failed(0, `${realCount(facts, korean)} ${deniedNote(korean)}`),
        finding: 'ungrounded',
      };
    }
  }
  const wrongCounts = searched ? counts.filter((count) => !countFits(count)) : [];
  const known = new Set([
    ...facts.quantities,
    ...facts.counts,
    ...facts.listed,
    ...facts.tallies,
    ...questionNumbers,
    ...quantitiesIn(input.context),
  ]);
  const unsupported = [
    ...new Set(quantitiesIn(blank(input.answer, searched ? counts : []))),
  ].filter((number) => !known.has(number));
  if (wrongCounts.length > 0 || unsupported.length > 0) {
    const feedback = [
      wrongCounts.length > 0 ? wrongCountNote(facts, wrongCounts, korean) : '',
      unsupported.length > 0 ? unsupportedNote(unsupported, known, questionNumbers, korean) : '',
    ];
    return { check: failed(0, feedback.filter(Boolean).join(' ')), finding: 'contradicted' };
  }
  if (searched && found && !statesRightCount) {
    const total = distinct(facts.counts).join(', ');
    return {
      check: failed(
        0.5,
        korean
          ? `답변에 도구가 센 이벤트 수(${total}건)를 밝히세요.`
          : `State the number of events the tool counted (${total}).`,
      ),
      finding: 'fine',
    };
  }
  return { check: passed(), finding: 'fine' };
}

/** Grounding as a plain check (see `assessGrounding`). */
export function groundingCheck(input: EvaluationInput): CheckResult {
  return assessGrounding(input).check;
}

function failed(score: number, feedback: string): CheckResult {
  return { name: 'grounding', score, passed: false, feedback };
}

/** The answer with the counts already judged blanked out, so their digits are not read twice. */
function blank(answer: string, counts: StatedCount[]): string {
  let text = answer;
  for (const count of counts) {
    text = `${text.slice(0, count.start)}${' '.repeat(count.end - count.start)}${text.slice(count.end)}`;
  }
  return text;
}

function distinct(values: number[]): number[] {
  return [...new Set(values)];
}

/** The feedback naming the real count: "실제 이벤트 수는 N건입니다" (one per log search). */
function realCount(facts: ToolFacts, korean: boolean): string {
  const counts = distinct(facts.counts);
  if (korean) return `실제 이벤트 수는 ${counts.map((count) => `${count}건`).join(', ')}입니다.`;
  return `The actual number of events is ${counts.join(', ')}.`;
}

function wrongCountNote(facts: ToolFacts, wrong: StatedCount[], korean: boolean): string {
  const stated = distinct(wrong.map((count) => count.value));
  return korean
    ? `${realCount(facts, korean)} 응답의 ${stated.map((count) => `${count}건`).join(', ')}은(는) 도구가 센 수(count)와 다릅니다. 도구가 센 수를 그대로 쓰세요.`
    : `${realCount(facts, korean)} The answer's ${stated.join(', ')} differs from the count the tool returned; state that count as it is.`;
}

function deniedNote(korean: boolean): string {
  return korean
    ? '도구는 조건에 맞는 이벤트를 찾았는데, 응답은 없다고 했습니다. 도구 결과를 근거로 다시 답하세요.'
    : 'The tool found matching events, but the answer says there are none. Answer from the tool results.';
}

function unsupportedNote(
  unsupported: number[],
  known: Set<number>,
  questionNumbers: number[],
  korean: boolean,
): string {
  const evidence = [...known].filter((number) => !questionNumbers.includes(number)).slice(0, 10);
  const listed = unsupported.join(', ');
  return korean
    ? `응답의 숫자 ${listed}은(는) 도구 결과나 참고 문서에 없습니다. 실제 값은 ${evidence.join(', ') || '(없음)'}입니다.`
    : `The numbers ${listed} in the answer are not in the tool results or the documents. The actual values are ${evidence.join(', ') || '(none)'}.`;
}

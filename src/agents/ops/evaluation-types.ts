/** One check of an answer: its score (0..1), whether it passed, and feedback for a retry. */
export interface CheckResult {
  name: string;
  score: number;
  passed: boolean;
  feedback: string;
}

/** All checks of an answer, combined. */
export interface Evaluation {
  score: number;
  checks: CheckResult[];
  /** The failed checks' feedback, for the regenerate prompt. */
  feedback: string | null;
}

/** What an answer is checked against. */
export interface EvaluationInput {
  question: string;
  answer: string;
  /** What the tools returned in this attempt. */
  toolResults: string[];
  /** The reference documents the agent was given. */
  context: string;
}

/**
 * How a check's finding weighs on the whole evaluation: `contradicted` (a count, number or
 * citation the sources contradict — fixable by a retry that is told the real value) keeps
 * the score between 0.3 and 0.7, so the answer is regenerated; `ungrounded` (the answer
 * denies what the tools found) keeps it below 0.3, so it is blocked.
 */
export type Finding = 'fine' | 'contradicted' | 'ungrounded';

/** A check's result with how it weighs on the whole evaluation. */
export interface AssessedCheck {
  check: CheckResult;
  finding: Finding;
}

import { createHash } from 'node:crypto';
import type { Feedback } from './eval-store.ts';
import type { EvalRun, EvalRunSummary } from './types.ts';

/** A stored run, as both stores read it. */
export interface RunRow {
  id: string;
  name: string;
  graph: string;
  created_at: string;
  status: EvalRun['status'];
  summary: string;
  items?: string;
  error: string | null;
}

/** A stored rating, as both stores read it. */
export interface FeedbackRow {
  session_id: string;
  owner: string;
  rating: number;
  comment: string | null;
  input: string;
  answer: string;
  rated_at: string;
}

/** What tells one rated answer of a session from another: its question and its text. */
export function answerKey(feedback: Pick<Feedback, 'input' | 'answer'>): string {
  return createHash('sha256').update(`${feedback.input}\u0000${feedback.answer}`).digest('hex');
}

/** A stored run row as the API shows it, without items. */
export function summaryOf(row: Omit<RunRow, 'items'>): EvalRunSummary {
  return {
    id: row.id,
    name: row.name,
    graph: row.graph,
    createdAt: row.created_at,
    status: row.status,
    summary: JSON.parse(row.summary),
    ...(row.error ? { error: row.error } : {}),
  };
}

/** A stored run row as the API shows it. */
export function runOf(row: RunRow): EvalRun {
  return { ...summaryOf(row), items: JSON.parse(row.items ?? '[]') };
}

/** A stored rating. */
export function feedbackOf(row: FeedbackRow): Feedback {
  return {
    sessionId: row.session_id,
    owner: row.owner,
    rating: row.rating > 0 ? 1 : -1,
    ...(row.comment ? { comment: row.comment } : {}),
    input: row.input,
    answer: row.answer,
    ratedAt: row.rated_at,
  };
}

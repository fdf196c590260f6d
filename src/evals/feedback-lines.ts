import type { Feedback } from './eval-store.ts';

/**
 * Rated answers as dataset lines (JSONL): `input` the user message the answer answered,
 * `expected` the answer when rated 👍 (absent for 👎), `tags` `["feedback:up"]` or
 * `["feedback:down"]`, and the rating's comment and session in `metadata`.
 */
export function feedbackLines(feedback: Feedback[]): string {
  return feedback
    .map((entry) =>
      JSON.stringify({
        input: entry.input,
        ...(entry.rating === 1 ? { expected: entry.answer } : {}),
        tags: [entry.rating === 1 ? 'feedback:up' : 'feedback:down'],
        metadata: {
          sessionId: entry.sessionId,
          ...(entry.comment ? { comment: entry.comment } : {}),
          ...(entry.rating === -1 ? { answer: entry.answer } : {}),
          ratedAt: entry.ratedAt,
        },
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

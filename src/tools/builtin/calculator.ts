import { z } from 'zod';
import { defineTool } from '../define-tool.ts';
import type { ToolDefinition } from '../types.ts';
import { MathWorker, type MathWorkerOptions } from './calculator/math-worker.ts';
import { evaluatePlainArithmetic } from './calculator/plain-arithmetic.ts';

const maxExpressionLength = 500;

const inputSchema = z.object({
  expression: z
    .string()
    .trim()
    .min(1, 'the expression is empty')
    .max(maxExpressionLength, `expressions are limited to ${maxExpressionLength} characters`)
    .describe(
      'A math expression, e.g. "123 * 456", "sqrt(2) / 2", "5 km to mile", "det([1,2;3,4])"',
    )
    // Full-width digits and operators (１２３ ＊ ４５６) read as the ASCII ones mathjs knows.
    .transform((expression) => expression.normalize('NFKC')),
});

/**
 * A calculator tool: plain arithmetic at once, anything else in mathjs in its own worker
 * thread with these limits (started on the first such expression, or by `warmUp`).
 * @example
 * registry.register(createCalculatorTool({ evaluationTimeoutMs: 1_000 }));
 */
export function createCalculatorTool(
  options: MathWorkerOptions = {},
): ToolDefinition<z.infer<typeof inputSchema>> {
  const mathWorker = new MathWorker(options);
  return defineTool({
    name: 'calculator',
    description:
      'Evaluates a math expression exactly, with mathjs syntax: arithmetic (123 * 456, 2^10, 7 mod 3), ' +
      'functions (sqrt(2), sin(pi / 4), log(100, 10), factorial(10), round(2.567, 2)), ' +
      'units (5 km to mile, 30 degC to degF), matrices ([1, 2; 3, 4] * 2, det([1, 2; 3, 4])), ' +
      'complex numbers (sqrt(-4)) and statistics (mean([1, 2, 3])). ' +
      'Use it for any arithmetic instead of computing in your head. Returns "expression = result".',
    inputSchema,
    timeoutMs: 8_000,
    async execute({ expression }, { signal }) {
      if (expression.length > maxExpressionLength) {
        throw new Error(`expressions are limited to ${maxExpressionLength} characters`);
      }
      // Plain arithmetic (most calls: "123 * 456") needs no thread, nor mathjs loaded.
      const plain = evaluatePlainArithmetic(expression);
      if (plain !== undefined) return `${expression} = ${plain}`;
      const outcome = await mathWorker.evaluate(expression, signal);
      if (!outcome.ok) {
        throw new Error(`could not evaluate "${shorten(expression)}": ${outcome.problem}`);
      }
      return `${expression} = ${outcome.result}`;
    },
    async warmUp() {
      const outcome = await mathWorker.evaluate('1 + 1');
      if (!outcome.ok) throw new Error(`the calculator did not start: ${outcome.problem}`);
    },
  });
}

/** The `calculator` tool: plain arithmetic, else mathjs in a locked-down instance in a worker thread. */
export const calculatorTool = createCalculatorTool();

function shorten(expression: string): string {
  return expression.length <= 80 ? expression : `${expression.slice(0, 80)}…`;
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// mathjs's own number formatting (a small module of its utilities, not the library): a plain
// result reads exactly as the calculator's mathjs instance writes it. The package's exports
// do not list the file, so it is loaded by its path in the installed package.
const require = createRequire(import.meta.url);
const { format } = require(
  join(dirname(require.resolve('mathjs/package.json')), 'lib', 'cjs', 'utils', 'number.js'),
) as { format: (value: number, options: object) => string };

/** As restricted-math.ts formats numbers: 14 significant digits, plain from 1e-7 up to 1e15. */
const formatOptions = { precision: 14, lowerExp: -7, upperExp: 15 };

/** Longest number literal taken here: mathjs reads longer ones its own way. */
const maxLiteralDigits = 15;

/**
 * The value of `expression` when it is plain arithmetic — decimal numbers (`12`, `3.5`),
 * `+ - * /`, unary signs and parentheses, separated by spaces — formatted as the
 * calculator's mathjs instance formats it; undefined for anything else (functions, units,
 * powers, implicit products such as `2(3)`, a result that is not finite), which mathjs
 * evaluates in its thread. One pass over the text, so linear in its length; mathjs gives the
 * same value, as its operators on plain numbers are JavaScript's (a test compares them).
 * @example
 * evaluatePlainArithmetic('123 * 456'); // '56088'
 * evaluatePlainArithmetic('sqrt(2)'); // undefined
 */
export function evaluatePlainArithmetic(expression: string): string | undefined {
  const parser = new PlainParser(expression);
  const value = parser.sum();
  if (value === undefined || !parser.atEnd() || !Number.isFinite(value)) return undefined;
  return format(value, formatOptions);
}

/** A recursive-descent reader of the grammar above; undefined wherever it leaves it. */
class PlainParser {
  #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  atEnd(): boolean {
    this.#skipSpaces();
    return this.#at === this.#text.length;
  }

  /** sum := product (('+' | '-') product)* */
  sum(): number | undefined {
    let value = this.#product();
    for (;;) {
      if (value === undefined) return undefined;
      const operator = this.#peek();
      if (operator !== '+' && operator !== '-') return value;
      this.#at += 1;
      const right = this.#product();
      if (right === undefined) return undefined;
      value = operator === '+' ? value + right : value - right;
    }
  }

  /** product := unary (('*' | '/') unary)* — and nothing that would multiply implicitly */
  #product(): number | undefined {
    let value = this.#unary();
    for (;;) {
      if (value === undefined) return undefined;
      const operator = this.#peek();
      if (operator !== '*' && operator !== '/') {
        // `2 3`, `2(3)`, `(2)3`: mathjs reads these as products, or refuses them.
        return operator === '(' || isDigit(operator) ? undefined : value;
      }
      this.#at += 1;
      const right = this.#unary();
      if (right === undefined) return undefined;
      value = operator === '*' ? value * right : value / right;
    }
  }

  /** unary := ('+' | '-') unary | number | '(' sum ')' */
  #unary(): number | undefined {
    const next = this.#peek();
    if (next === '-' || next === '+') {
      this.#at += 1;
      const operand = this.#unary();
      return operand === undefined ? undefined : next === '-' ? -operand : operand;
    }
    if (next === '(') {
      this.#at += 1;
      const inner = this.sum();
      if (inner === undefined || this.#peek() !== ')') return undefined;
      this.#at += 1;
      return inner;
    }
    return this.#number();
  }

  /** number := digit+ ('.' digit+)? */
  #number(): number | undefined {
    const text = this.#text;
    const start = this.#at;
    let digits = 0;
    while (isDigit(text[this.#at])) {
      this.#at += 1;
      digits += 1;
    }
    if (digits === 0) return undefined;
    if (text[this.#at] === '.') {
      this.#at += 1;
      const before = digits;
      while (isDigit(text[this.#at])) {
        this.#at += 1;
        digits += 1;
      }
      if (digits === before) return undefined;
    }
    // `1e3`, `1.2.3`, `0x1F`, `2x`: mathjs's own reading.
    const after = text[this.#at];
    if (after !== undefined && /[\w.]/.test(after)) return undefined;
    if (digits > maxLiteralDigits) return undefined;
    return Number(text.slice(start, this.#at));
  }

  /** The next character after spaces, left unread (undefined at the end). */
  #peek(): string | undefined {
    this.#skipSpaces();
    return this.#text[this.#at];
  }

  #skipSpaces(): void {
    while (this.#text[this.#at] === ' ') this.#at += 1;
  }
}

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9';
}

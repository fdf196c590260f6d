import { createRequire } from 'node:module';
import type { FactoryFunctionMap, MathNode } from 'mathjs';

// mathjs's one-file build: the same library, loaded in ~0.1 s where its 1 262 ESM modules
// take ~1 s, which every start and restart of the calculator's thread used to wait for.
const { all, create } = createRequire(import.meta.url)(
  'mathjs/lib/browser/math.js',
) as typeof import('mathjs');

/** What one evaluation gives: the formatted result, or why there is none. */
export type CalculationOutcome = { ok: true; result: string } | { ok: false; problem: string };

/** Evaluates expressions in a locked-down mathjs instance. */
export interface RestrictedMath {
  evaluate(expression: string): CalculationOutcome;
}

/**
 * Functions that parse, compile or change the instance; they are replaced with ones that
 * throw (mathjs's security guidance) and also refused before evaluation, so an expression
 * can only compute.
 */
const disabledFunctions = [
  'import',
  'createUnit',
  'evaluate',
  'parse',
  'parser',
  'compile',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'derivative',
  'rationalize',
  'resolve',
  'symbolicEqual',
  'leafCount',
  'reviver',
  'replacer',
  'chain',
] as const;

/** Refused by name only: replacing them would break mathjs's lazily built functions. */
const refusedNames = new Set<string>([...disabledFunctions, 'typed', 'config', 'help']);

/** Properties that lead from a value to JavaScript internals. */
const refusedProperties = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'bind',
  'call',
  'apply',
]);

/** 14 significant digits; plain notation from 1e-7 up to 1e15 (120000000, not 1.2e+8). */
const formatOptions = { precision: 14, lowerExp: -7, upperExp: 15 };
const maxResultLength = 2_000;

/** A fresh restricted instance; build it once per thread (~0.1 s). */
export function createRestrictedMath(): RestrictedMath {
  // The typings call `all` optional; the package always exports it.
  const math = create(all as FactoryFunctionMap, { number: 'number', precision: 64 });
  const parse = math.parse;
  const refuse = (name: string) => () => {
    throw new Error(`${name} is not available in the calculator`);
  };
  math.import(Object.fromEntries(disabledFunctions.map((name) => [name, refuse(name)])), {
    override: true,
  });

  const format = (value: unknown): string => {
    if (math.isResultSet(value)) return value.entries.map(format).join('; ');
    return math.format(value, formatOptions);
  };

  return {
    evaluate(expression) {
      let node: MathNode;
      try {
        node = parse(expression);
      } catch (error) {
        return { ok: false, problem: messageOf(error) };
      }
      const refused = findRefusedPart(node);
      if (refused !== undefined) return { ok: false, problem: refused };
      let value: unknown;
      try {
        value = node.compile().evaluate(new Map());
      } catch (error) {
        return { ok: false, problem: messageOf(error) };
      }
      // `a = 2; a * 3` gives a set of the results not followed by `;`.
      const results = math.isResultSet(value) ? (value.entries as unknown[]) : [value];
      if (results.length === 0) {
        return {
          ok: false,
          problem: 'nothing to show: every part of the expression ends with ";"',
        };
      }
      for (const result of results) {
        const unusable = describeUnusable(result);
        if (unusable !== undefined) return { ok: false, problem: unusable };
      }
      const result = format(value);
      if (result.length <= maxResultLength) return { ok: true, result };
      return {
        ok: true,
        result: `${result.slice(0, maxResultLength)}… (${result.length - maxResultLength} more characters)`,
      };
    },
  };
}

/** The first part of the tree that names a refused function or property, as a message. */
function findRefusedPart(root: MathNode): string | undefined {
  let problem: string | undefined;
  root.traverse((node) => {
    if (problem !== undefined) return;
    if (node.type === 'SymbolNode' || node.type === 'FunctionAssignmentNode') {
      const name = (node as unknown as { name: string }).name;
      if (refusedNames.has(name)) problem = `"${name}" is not available in the calculator`;
    } else if (node.type === 'AccessorNode' || node.type === 'AssignmentNode') {
      const name = (node as unknown as { name?: string }).name;
      if (name !== undefined && refusedProperties.has(name)) {
        problem = `access to the property "${name}" is not allowed`;
      }
    } else if (node.type === 'ConstantNode') {
      const value = (node as unknown as { value: unknown }).value;
      if (typeof value === 'string' && refusedProperties.has(value)) {
        problem = `access to the property "${value}" is not allowed`;
      }
    }
  });
  return problem;
}

/** Why a value is no answer (infinite, not a number, an uncalled function), if it is not one. */
function describeUnusable(value: unknown): string | undefined {
  if (typeof value === 'function') {
    return 'the expression defines a function but never calls it; call it too, as in f(x) = x^2; f(3)';
  }
  // Numbers, and BigNumber and Complex values, which have the same two checks as methods.
  const checks = typeof value === 'number' ? numberChecks(value) : methodChecks(value);
  if (checks === undefined) return undefined;
  if (checks.isNaN) return 'the result is not a number (NaN)';
  if (!checks.isFinite) {
    return 'the result is infinite: a division by zero, or a number too large to represent (factorials above 170!, huge powers)';
  }
  return undefined;
}

function numberChecks(value: number): { isNaN: boolean; isFinite: boolean } {
  return { isNaN: Number.isNaN(value), isFinite: Number.isFinite(value) };
}

function methodChecks(value: unknown): { isNaN: boolean; isFinite: boolean } | undefined {
  const candidate = value as { isNaN?: unknown; isFinite?: unknown } | null;
  if (typeof candidate?.isNaN !== 'function' || typeof candidate.isFinite !== 'function') {
    return undefined;
  }
  return { isNaN: candidate.isNaN() === true, isFinite: candidate.isFinite() === true };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

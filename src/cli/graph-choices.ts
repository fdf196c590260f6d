import { builtinGraphNames, defaultGraphName, evaluationGraphName } from '../agents/index.ts';

/** The built-in agents as a usage line offers them: `a|b|c`. */
export function builtinGraphChoices(): string {
  return builtinGraphNames.join('|');
}

/** The built-in agents as a sentence lists them: `a, b, c`. */
export function builtinGraphList(): string {
  return builtinGraphNames.join(', ');
}

/**
 * The built-in agents as `--graph` help describes them: each by name, the default marked and
 * the evaluating one explained (the default agent inside the self-checking loop).
 */
export function builtinGraphWords(): string {
  const words = builtinGraphNames.map((name: string) => {
    if (name === defaultGraphName) return `${name} (default)`;
    if (name === evaluationGraphName) {
      return `${name} (${defaultGraphName} inside the self-checking loop)`;
    }
    return name;
  });
  return `${words.slice(0, -1).join(', ')}, or ${words.at(-1)}`;
}

import type { VaultEntry } from './types.ts';

/** `[EMAIL_1]`: a numbered placeholder (kind in capitals, then its number). */
const numbered = /\[([A-Z]+)_([1-9][0-9]{0,8})\]/g;

/**
 * A session's restorable values: each gets a numbered placeholder (`[EMAIL_1]`, `[PHONE_2]`),
 * the same value always the same one, numbered per kind. Placeholders go to the model and the
 * store; the values only to the tools that may have them.
 * @example
 * const vault = new PlaceholderVault();
 * vault.placeholderFor('email', 'hong@example.com'); // '[EMAIL_1]'
 * vault.restore('보낼 곳: [EMAIL_1]'); // '보낼 곳: hong@example.com'
 */
export class PlaceholderVault {
  #byPlaceholder = new Map<string, VaultEntry>();
  #byValue = new Map<string, VaultEntry>();
  #highest = new Map<string, number>();
  #added: VaultEntry[] = [];

  /** A vault holding a session's stored entries (a later turn's, another instance's). */
  constructor(entries: readonly VaultEntry[] = []) {
    for (const entry of entries) this.#remember(entry);
  }

  /** The placeholder of a value: the one it already has, else the kind's next number. */
  placeholderFor(kind: string, value: string): string {
    const known = this.#byValue.get(`${kind}\u0000${value}`);
    if (known !== undefined) return known.placeholder;
    const number = (this.#highest.get(kind) ?? 0) + 1;
    const entry: VaultEntry = { placeholder: `[${kind.toUpperCase()}_${number}]`, kind, value };
    this.#remember(entry);
    this.#added.push(entry);
    return entry.placeholder;
  }

  /** The text with every placeholder of this vault replaced by its value (others stay). */
  restore(text: string): string {
    if (this.#byPlaceholder.size === 0 || text.indexOf('[') === -1) return text;
    return text.replace(
      numbered,
      (placeholder) => this.#byPlaceholder.get(placeholder)?.value ?? placeholder,
    );
  }

  /** A copy of a value with {@link restore} applied to every string at any depth of its arrays and plain objects. */
  restoreDeep<T>(value: T): T {
    if (this.#byPlaceholder.size === 0) return value;
    return this.#restoreValue(value, 0) as T;
  }

  /** The entries numbered since the last call (for the store to keep), then forgets them. */
  takeAdded(): VaultEntry[] {
    const added = this.#added;
    this.#added = [];
    return added;
  }

  /** Every entry, in the order they were numbered or loaded. */
  entries(): VaultEntry[] {
    return [...this.#byPlaceholder.values()];
  }

  #remember(entry: VaultEntry): void {
    this.#byPlaceholder.set(entry.placeholder, entry);
    this.#byValue.set(`${entry.kind}\u0000${entry.value}`, entry);
    const number = Number(entry.placeholder.slice(entry.placeholder.lastIndexOf('_') + 1, -1));
    if (number > (this.#highest.get(entry.kind) ?? 0)) this.#highest.set(entry.kind, number);
  }

  #restoreValue(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.restore(value);
    if (depth > 64 || typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item) => this.#restoreValue(item, depth + 1));
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      copy[key] = this.#restoreValue(item, depth + 1);
    return copy;
  }
}

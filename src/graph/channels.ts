/**
 * A state field: its starting value, how an update combines with the current value,
 * and (optionally) how an update is made deterministic before it is committed, so
 * that replaying the stored update rebuilds the same value.
 */
export interface Channel<Value, Update = Value> {
  readonly kind: string;
  initial(): Value;
  reduce(current: Value, update: Update): Value;
  prepare?(update: Update): Update;
}

/** The value type a channel holds. */
export type ChannelValue<C> = C extends Channel<infer Value, unknown> ? Value : never;
/** The update type a channel accepts. */
export type ChannelUpdate<C> = C extends Channel<unknown, infer Update> ? Update : never;

/** The last write wins (the default for plain fields). `undefined` updates are ignored. */
export function replace<Value>(initial: Value): Channel<Value, Value> {
  return {
    kind: 'replace',
    initial: () => initial,
    reduce: (_current, update) => update,
  };
}

/** Appends an item or a list of items to a list (tool results, events). */
export function append<Item>(): Channel<Item[], Item | Item[]> {
  return {
    kind: 'append',
    initial: () => [],
    reduce: (current, update) =>
      Array.isArray(update) ? current.concat(update) : [...current, update],
  };
}

/** Adds the update to a number (iteration counters). */
export function increment(initial = 0): Channel<number, number> {
  return {
    kind: 'increment',
    initial: () => initial,
    reduce: (current, update) => current + update,
  };
}

/**
 * A field with a reducer of your own. `reduce` must be pure and deterministic:
 * checkpoints store updates and rebuild state by running it again.
 */
export function reducer<Value, Update>(
  reduce: (current: Value, update: Update) => Value,
  initial: () => Value,
): Channel<Value, Update> {
  return { kind: 'custom', initial, reduce };
}

import type { Channel, ChannelUpdate, ChannelValue } from './channels.ts';
import { InvalidUpdateError } from './errors/invalid-update-error.ts';

// biome-ignore lint/suspicious/noExplicitAny: channels of any value type live in one schema
export type AnyChannel = Channel<any, any>;

/** A state schema: one channel per field. */
export type StateSchema = Record<string, AnyChannel>;

/** The state values a schema describes. */
export type StateOf<Schema extends StateSchema> = {
  [Key in keyof Schema]: ChannelValue<Schema[Key]>;
};

/** A partial update to a schema's state, as nodes return it. */
export type UpdateOf<Schema extends StateSchema> = {
  [Key in keyof Schema]?: ChannelUpdate<Schema[Key]>;
};

/**
 * Declares a state schema (a typed identity function).
 * @example
 * const schema = defineState({ messages: messages<ChatMessage>(), route: replace<string | null>(null) });
 */
export function defineState<Schema extends StateSchema>(schema: Schema): Schema {
  return schema;
}

/** The starting state of a schema. */
export function initialState<Schema extends StateSchema>(schema: Schema): StateOf<Schema> {
  const state: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) state[key] = (schema[key] as AnyChannel).initial();
  return state as StateOf<Schema>;
}

/**
 * Checks an update's fields against the schema and runs each channel's `prepare`,
 * giving the form that is committed and replayed. Returns undefined for an empty update.
 */
export function prepareUpdate(
  schema: StateSchema,
  update: Record<string, unknown> | null | undefined,
  node: string,
): Record<string, unknown> | undefined {
  if (update === null || update === undefined) return undefined;
  if (typeof update !== 'object' || Array.isArray(update)) {
    throw new InvalidUpdateError({ node, fields: [`(not an object: ${typeof update})`] });
  }
  let prepared: Record<string, unknown> | undefined;
  let unknownFields: string[] | undefined;
  for (const key in update) {
    const value = update[key];
    if (value === undefined) continue;
    const channel = schema[key];
    if (channel === undefined) {
      unknownFields ??= [];
      unknownFields.push(key);
      continue;
    }
    prepared ??= {};
    prepared[key] = channel.prepare ? channel.prepare(value) : value;
  }
  if (unknownFields) throw new InvalidUpdateError({ node, fields: unknownFields });
  return prepared;
}

/** Applies a prepared update, returning a new state object (the old one is untouched). */
export function applyUpdate<State extends Record<string, unknown>>(
  schema: StateSchema,
  state: State,
  prepared: Record<string, unknown> | undefined,
): State {
  if (prepared === undefined) return state;
  const next: Record<string, unknown> = { ...state };
  for (const key in prepared) {
    // A stored update may name a field a newer schema dropped; replay skips it.
    const channel = schema[key];
    if (channel !== undefined) next[key] = channel.reduce(state[key], prepared[key]);
  }
  return next as State;
}

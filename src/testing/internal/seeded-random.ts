/**
 * A small deterministic generator of numbers in [0, 1) (mulberry32), so that a test drawing
 * random cases fails again, on the same case, when run again.
 * @example
 * const next = seededRandom(42);
 * const roll = next();
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

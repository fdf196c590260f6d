/**
 * The output `render` builds from as many leading items as fit in `maxChars` once written
 * as JSON, so that a search result stays whole JSON instead of being cut mid-way by the
 * executor. At least one item is kept; `omitted` tells `render` how many were left out.
 * @example fitToSize(pages, (kept, omitted) => ({ results: kept, omitted }), 3_900)
 */
export function fitToSize<Item, Output>(
  items: Item[],
  render: (kept: Item[], omitted: number) => Output,
  maxChars: number,
): Output {
  for (let count = items.length; count > 1; count -= 1) {
    const output = render(items.slice(0, count), items.length - count);
    if (JSON.stringify(output).length <= maxChars) return output;
  }
  return render(items.slice(0, 1), Math.max(0, items.length - 1));
}

/** `text` cut to `maxChars` characters, with `…` marking a cut. */
export function capText(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/**
 * Append every item of `items` to `target`. `target.push(...items)` passes each
 * item as an argument and overflows the stack past ~120,000 items, which a
 * single hostile file can produce (one diagnostic per line of a 4 MiB file).
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * Where a value is not plain data: the paths of every function, symbol, class
 * instance (anything whose prototype is not Object's, null, Array's, Map's,
 * Set's or a typed array's) and shared reference cycle below it. A stage
 * result with none survives structuredClone unchanged and can be cached.
 */
export function notPlain(value: unknown, path = '$'): string[] {
  const out: string[] = [];
  walk(value, path, out, new Set());
  return out;
}

function walk(v: unknown, path: string, out: string[], stack: Set<object>): void {
  if (typeof v === 'function') return void out.push(`${path}: function ${(v as { name?: string }).name ?? ''}`.trimEnd());
  if (typeof v === 'symbol') return void out.push(`${path}: symbol`);
  if (v === null || typeof v !== 'object') return;
  if (ArrayBuffer.isView(v)) return;
  if (stack.has(v)) return void out.push(`${path}: cycle`);
  stack.add(v);
  const proto = Object.getPrototypeOf(v) as object | null;
  if (v instanceof Map && proto === Map.prototype) {
    for (const [k, x] of v) {
      walk(k, `${path}.key(${String(k)})`, out, stack);
      walk(x, `${path}.get(${String(k)})`, out, stack);
    }
  } else if (v instanceof Set && proto === Set.prototype) {
    let i = 0;
    for (const x of v) walk(x, `${path}.set[${i++}]`, out, stack);
  } else if (Array.isArray(v) && proto === Array.prototype) {
    v.forEach((x, i) => walk(x, `${path}[${i}]`, out, stack));
  } else if (proto === Object.prototype || proto === null) {
    for (const k of Reflect.ownKeys(v)) {
      if (typeof k === 'symbol') out.push(`${path}: symbol key`);
      else walk((v as Record<string, unknown>)[k], `${path}.${k}`, out, stack);
    }
  } else {
    out.push(`${path}: instance of ${(proto as { constructor?: { name?: string } }).constructor?.name ?? '?'}`);
  }
  stack.delete(v);
}

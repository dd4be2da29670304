/**
 * Where two object graphs differ (an index built two ways): every field, followed through objects,
 * arrays, maps, sets and typed arrays (their contents and lengths), but functions and the fields
 * named in `ignore`. An empty list when they are the same.
 */
export function differences(a: unknown, b: unknown, ignore: readonly string[] = []): string[] {
  const found: string[] = [];
  const seen = new Map<object, object>();
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (found.length >= 20) return;
    if (typeof x === 'function' && typeof y === 'function') return;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!Object.is(x, y)) found.push(`${path}: ${String(x)} ≠ ${String(y)}`);
      return;
    }
    if (seen.get(x) === y) return;
    seen.set(x, y);
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) {
      found.push(`${path}: a ${x.constructor.name} ≠ a ${y.constructor.name}`);
      return;
    }
    if (ArrayBuffer.isView(x)) {
      const [p, q] = [x, y as ArrayBufferView].map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      if (!p!.equals(q!)) found.push(`${path}: typed arrays of ${p!.length} and ${q!.length} bytes differ`);
      return;
    }
    if (x instanceof Map || x instanceof Set) {
      const [p, q] = [[...x.entries()], [...(y as Map<unknown, unknown>).entries()]];
      walk(p, q, `${path}.entries`);
      return;
    }
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) found.push(`${path}.length: ${x.length} ≠ ${other.length}`);
      for (let i = 0; i < Math.min(x.length, other.length); i += 1) walk(x[i], other[i], `${path}[${i}]`);
      return;
    }
    const keys = (o: object) => Object.keys(o).filter((k) => !ignore.includes(k));
    const [p, q] = [keys(x), keys(y)];
    if (p.join() !== q.join()) found.push(`${path}: fields ${p.join()} ≠ ${q.join()}`);
    for (const key of p)
      walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], `${path}.${key}`);
  };
  walk(a, b, '');
  return found;
}

/**
 * One set of music-metadata's tag mappers for every file it parses. Each parse makes a new
 * collector, which makes all eleven mappers again: tables of several hundred tag names, most of
 * them upper-cased one by one into new objects, and then thrown away. In a scan that was the
 * largest single cost of a file after reading it, and the garbage and the optimizing compiler's
 * work it brought cost as much again. A mapper holds nothing but its tag types and its table, both
 * fixed, so one of each serves every file alike.
 *
 * music-metadata has no option for this, and its collector makes the mappers by name. So the
 * first parse hands its collector to `observer` (an option music-metadata offers), and each
 * mapper's class is made to answer `new` with that first instance: the mappers' constructors only
 * pass their fixed tables on, through `super`, to the class above them, which is where the shared
 * instance is put in. Where the collector or a mapper does not look as this expects (another
 * version of music-metadata), nothing is changed and every parse makes its own mappers as before.
 */
import type { IOptions } from 'music-metadata';

type Observer = NonNullable<IOptions['observer']>;

/** What a mapper holds when it is safe to share: its tag types and its table, nothing else. */
const MAPPER_FIELDS = ['tagMap', 'tagTypes'];

let settled = false;

/** Options for a parse: `observer` until the mappers are shared (or found not shareable). */
export function sharingTagMappers(): { observer?: Observer } {
  return settled ? {} : { observer };
}

const observer: Observer = ({ metadata }) => {
  if (settled) return;
  settled = true;
  shareTagMappersOf(metadata);
};

/** Makes every later collector use `collector`'s mappers; false when they are not shareable. */
export function shareTagMappersOf(collector: unknown): boolean {
  const mappers = mappersOf(collector);
  if (!mappers) return false;
  // A class with instances for several tag types answers with one of them.
  const byClass = new Map(mappers.map((m) => [m.constructor, m]));
  for (const mapper of byClass.values()) shareInstance(mapper);
  return true;
}

/** The collector's mappers, or null when any of them is not a plain, stateless mapper. */
function mappersOf(collector: unknown): object[] | null {
  const combined = (collector as { tagMapper?: { tagMappers?: unknown } } | null)?.tagMapper;
  const byType = combined?.tagMappers;
  if (typeof byType !== 'object' || byType === null) return null;
  const mappers: object[] = [];
  for (const m of new Set<unknown>(Object.values(byType))) {
    const plain =
      typeof m === 'object' &&
      m !== null &&
      typeof m.constructor === 'function' &&
      Object.keys(m).sort().join() === MAPPER_FIELDS.join();
    if (!plain) return null;
    mappers.push(m);
  }
  return mappers.length > 0 ? mappers : null;
}

/**
 * Makes `new` of the mapper's class answer the mapper itself. A derived class's `super(...)` calls
 * whatever its class inherits from at that moment; a function that returns an object from `new`
 * makes that object the new instance. The function inherits the class's own parent, so static
 * members still resolve as before.
 */
function shareInstance(mapper: object): void {
  const type = mapper.constructor;
  const parent = Object.getPrototypeOf(type) as object;
  // A base class (no parent but Function.prototype) has no `super` call to answer through.
  if (parent === Function.prototype) return;
  function sharedMapper(): object {
    return mapper;
  }
  Object.setPrototypeOf(sharedMapper, parent);
  Object.setPrototypeOf(type, sharedMapper);
}

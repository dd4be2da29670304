/**
 * A set of (user, track, second) keys, the identity of a listen for de-duplication: 8 bytes a slot
 * in one typed array (open addressing, linear probing, at most three quarters full), about a tenth of
 * what a Set of strings costs. A slot holds the second (modulo 2^32:
 * 136 years) and a 32-bit hash of the user and track, never 0 (0 marks a free slot): two different
 * tracks of one user would have to share the hash *and* the second to be confused.
 */
export class ListenKeys {
  /** Per slot, [second, pair hash]. */
  private slots: Uint32Array;
  private slotCount: number;
  private count = 0;

  constructor(capacity = 1024) {
    this.slotCount = slotsFor(capacity);
    this.slots = new Uint32Array(2 * this.slotCount);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** Adds the key; false when it was already there. */
  add(userId: string, trackId: string, atMs: number): boolean {
    return this.insert(Math.floor(atMs / 1000) >>> 0, pairHash(userId, trackId) || 1);
  }

  has(userId: string, trackId: string, atMs: number): boolean {
    const second = Math.floor(atMs / 1000) >>> 0;
    const pair = pairHash(userId, trackId) || 1;
    const { slots, slotCount } = this;
    for (let slot = mix(second, pair) % slotCount; ; slot = slot + 1 === slotCount ? 0 : slot + 1) {
      const held = slots[2 * slot + 1]!;
      if (held === 0) return false;
      if (held === pair && slots[2 * slot] === second) return true;
    }
  }

  /**
   * Room for `more` keys beyond those held, made at once: an import that knows roughly how many
   * listens it will add sizes the table (and rehashes it) once, to what they need, instead of
   * growing it by half again and again. It grows by half at least, so that asking for a little
   * more at a time does not rehash it each time.
   */
  reserve(more: number): void {
    if (this.count + more > this.slotCount * MAX_LOAD) this.grow(this.count + more);
  }

  private grow(keys: number): void {
    this.rehash(Math.max(slotsFor(keys), Math.ceil(this.slotCount * 1.5)));
  }

  private insert(second: number, pair: number): boolean {
    if (this.count + 1 > this.slotCount * MAX_LOAD) this.grow(this.count + 1);
    const { slots, slotCount } = this;
    for (let slot = mix(second, pair) % slotCount; ; slot = slot + 1 === slotCount ? 0 : slot + 1) {
      const held = slots[2 * slot + 1]!;
      if (held === 0) {
        slots[2 * slot] = second;
        slots[2 * slot + 1] = pair;
        this.count += 1;
        return true;
      }
      if (held === pair && slots[2 * slot] === second) return false;
    }
  }

  private rehash(slotCount: number): void {
    const old = this.slots;
    this.slotCount = slotCount;
    this.slots = new Uint32Array(2 * slotCount);
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.insert(old[i]!, old[i + 1]!);
  }
}

/**
 * How full the table may get. Three quarters, not half: a third less memory, for a few more probes
 * to add a new key (of slots next to each other, 8 bytes each, so they are cheap).
 */
const MAX_LOAD = 0.75;

/** Slots for `keys` keys at most MAX_LOAD full (at least 16). */
function slotsFor(keys: number): number {
  return Math.max(16, Math.ceil(keys / MAX_LOAD) + 1);
}

/** FNV-1a over the user id, a separator and the track id. */
export function pairHash(userId: string, trackId: string): number {
  let h = 0x811c9dc5;
  const feed = (text: string) => {
    for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  };
  feed(userId);
  h = Math.imul(h ^ 0, 0x01000193);
  feed(trackId);
  return h >>> 0;
}

function mix(second: number, hash: number): number {
  let x = (Math.imul(second | 0, 0x9e3779b1) ^ hash) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  return (x ^ (x >>> 13)) >>> 0;
}

/**
 * A set of (user, track, second) keys, the identity of a listen for de-duplication: 12 bytes a
 * slot in typed arrays (open addressing), so a million listens cost ~24 MB, not the ~100 MB of a
 * Set of strings. The user and track are kept as a 32-bit hash of their ids: two different tracks
 * of one user would have to share the hash *and* the second to be confused.
 */
export class ListenKeys {
  private seconds: Float64Array;
  private hashes: Uint32Array;
  private count = 0;

  constructor(capacity = 1024) {
    const size = 1 << Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.seconds = new Float64Array(size).fill(-1);
    this.hashes = new Uint32Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already there. */
  add(userId: string, trackId: string, atMs: number): boolean {
    return this.insert(Math.floor(atMs / 1000), pairHash(userId, trackId));
  }

  has(userId: string, trackId: string, atMs: number): boolean {
    const second = Math.floor(atMs / 1000);
    const hash = pairHash(userId, trackId);
    const mask = this.seconds.length - 1;
    for (let slot = mix(second, hash) & mask; ; slot = (slot + 1) & mask) {
      const s = this.seconds[slot]!;
      if (s === -1) return false;
      if (s === second && this.hashes[slot] === hash) return true;
    }
  }

  private insert(second: number, hash: number): boolean {
    if ((this.count + 1) * 2 > this.seconds.length) this.grow();
    const mask = this.seconds.length - 1;
    for (let slot = mix(second, hash) & mask; ; slot = (slot + 1) & mask) {
      const s = this.seconds[slot]!;
      if (s === -1) {
        this.seconds[slot] = second;
        this.hashes[slot] = hash;
        this.count += 1;
        return true;
      }
      if (s === second && this.hashes[slot] === hash) return false;
    }
  }

  private grow(): void {
    const { seconds, hashes } = this;
    this.seconds = new Float64Array(seconds.length * 2).fill(-1);
    this.hashes = new Uint32Array(seconds.length * 2);
    this.count = 0;
    for (let i = 0; i < seconds.length; i += 1) {
      if (seconds[i] !== -1) this.insert(seconds[i]!, hashes[i]!);
    }
  }
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ID_BYTES, packId, unpackId } from '../../../../server/services/stats/log-ids.js';

describe('log id packing', () => {
  it('round-trips every 16-byte id, at any offset, without touching its neighbours', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.nat(40), (raw, offset) => {
        const id = Buffer.from(raw).toString('base64url');
        const out = new Uint8Array(offset + ID_BYTES + 8).fill(0xee);
        expect(packId(id, out, offset)).toBe(true);
        expect(unpackId(out, offset)).toBe(id);
        expect(out.subarray(0, offset).every((b) => b === 0xee)).toBe(true);
        expect(out.subarray(offset + ID_BYTES).every((b) => b === 0xee)).toBe(true);
      }),
    );
  });

  it('refuses ids of another shape, which are then kept as strings', () => {
    const out = new Uint8Array(ID_BYTES);
    expect(packId('log1', out, 0)).toBe(false);
    expect(packId('A'.repeat(23), out, 0)).toBe(false);
    expect(packId('A'.repeat(21) + '=', out, 0)).toBe(false);
    expect(packId('A'.repeat(20) + 'é' + 'A', out, 0)).toBe(false);
    expect(packId('A'.repeat(20) + '+A', out, 0)).toBe(false);
    // Its last character has bits beyond the 16 bytes: unpacking would give another id.
    expect(packId('A'.repeat(21) + 'B', out, 0)).toBe(false);
  });
});

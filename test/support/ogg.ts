/**
 * Builds Ogg pages for the readers' tests: the header, the segment table from the packets' lengths,
 * the bodies. The CRC is left zero: the readers do not check it.
 */
export function oggPage(page: {
  serial: number;
  granule: bigint;
  packets: Buffer[];
  first?: boolean;
  /** The last packet goes on in the next page (its last segment is 255 bytes long). */
  open?: boolean;
  sequence?: number;
}): Buffer {
  const lacing: number[] = [];
  for (const [i, packet] of page.packets.entries()) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    if (!(page.open && i === page.packets.length - 1)) lacing.push(left);
  }
  if (lacing.length > 255) throw new Error('too many segments for one page');
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = page.first ? 2 : 0;
  header.writeBigInt64LE(page.granule, 6);
  header.writeUInt32LE(page.serial, 14);
  header.writeUInt32LE(page.sequence ?? 0, 18);
  header[26] = lacing.length;
  return Buffer.concat([header, Buffer.from(lacing), ...page.packets]);
}

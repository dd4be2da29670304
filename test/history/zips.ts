import yazl from 'yazl';

/**
 * A ZIP made as the services make theirs (deflated entries at the paths they use), built in memory
 * with yazl, the writer that goes with the reader Melon uses.
 */
export async function zipOf(entries: Array<[name: string, content: string | Buffer]>): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.from(content), name, { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The ZIP with its end-of-central-directory record claiming `count` entries (what a ZIP of that
 * many says of itself, without writing them all).
 */
export function declaringEntries(zip: Uint8Array, count: number): Uint8Array {
  const out = Buffer.from(zip);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  out.writeUInt16LE(count, eocd + 8);
  out.writeUInt16LE(count, eocd + 10);
  return new Uint8Array(out);
}

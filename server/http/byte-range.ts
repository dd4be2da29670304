/**
 * The `Range` header of a GET (RFC 9110, section 14.2), for one range of bytes. Several ranges, other
 * units and malformed headers are ignored (the whole file is sent, as the RFC allows); a well-formed
 * range that starts past the end is unsatisfiable (416).
 */
export type ByteRange = { start: number; end: number };

export function parseByteRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === null) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  // Digits beyond what a double holds exactly only mean "more than any file".
  const number = (digits: string) => (digits.length > 15 ? Number.MAX_SAFE_INTEGER : Number(digits));
  if (first === '') {
    // A suffix: the last N bytes.
    const suffix = number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = number(first);
  if (last !== '' && number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(number(last), size - 1) };
}

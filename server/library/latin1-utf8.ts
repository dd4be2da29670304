/**
 * RIFF INFO chunks and ID3v1 tags have no text encoding field; music-metadata reads them as Latin-1.
 * Many taggers (ffmpeg among them) write UTF-8 there, which then shows as `MÃ¤dchen`. Bytes that form
 * valid UTF-8 with at least one multi-byte sequence are almost never meant as Latin-1 (it would take
 * a letter like `Ã` followed by a C1 control or a symbol such as `¤`), so such text is re-decoded.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `text` re-decoded as UTF-8 when its Latin-1 bytes are valid UTF-8 with a multi-byte sequence. */
export function utf8FromLatin1(text: string): string {
  // Only text that is all Latin-1 and not all ASCII can be mis-decoded UTF-8.
  if (!/[\u0080-\u00ff]/.test(text) || /[\u0100-\uffff]/.test(text)) return text;
  try {
    return utf8.decode(Buffer.from(text, 'latin1'));
  } catch {
    return text; // not UTF-8: it really was Latin-1
  }
}

/**
 * The two forms of every Subsonic answer, made from one JSON-shaped payload:
 * - JSON: `{"subsonic-response": {status, version, …, ...payload}}`;
 * - XML, following the API's XSD: a scalar field is an attribute, an object is a child element, a
 *   list is one child element per item (named after the list), and a field named `value` is the
 *   element's text (e.g. `<genre songCount="3">Rock</genre>`).
 */

export const API_VERSION = '1.16.1';
export const SERVER_TYPE = 'melon';
const XMLNS = 'http://subsonic.org/restapi';

export type Format = 'xml' | 'json';

export type Payload = Record<string, unknown>;

/**
 * A value the XSD wants as a child element with text, not an attribute (ArtistInfo's image URLs,
 * AlbumInfo's notes); JSON gets the plain string.
 */
export class TextElement {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

export function envelope(status: 'ok' | 'failed', serverVersion: string, payload: Payload): Payload {
  return {
    status,
    version: API_VERSION,
    type: SERVER_TYPE,
    serverVersion,
    openSubsonic: true,
    ...payload,
  };
}

/** The answer's body and media type. */
export function render(format: Format, body: Payload): { text: string; type: string } {
  if (format === 'json')
    return { text: JSON.stringify({ 'subsonic-response': body }), type: 'application/json; charset=utf-8' };
  // Pieces joined once: an answer of every artist or song is megabytes, and a string grown by
  // concatenation at each element left that much garbage for every request.
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  element(out, 'subsonic-response', body, XMLNS);
  return { text: out.join(''), type: 'text/xml; charset=utf-8' };
}

/**
 * One item of a list as it stands inside an answer: the element named `name` in XML, the object in
 * JSON. Pieces made this way and joined give the answer `render` makes of the whole list.
 */
export function renderItem(format: Format, name: string, fields: Payload): string {
  if (format === 'json') return JSON.stringify(fields);
  const out: string[] = [];
  element(out, name, fields);
  return out.join('');
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * An element: scalars are attributes (`value` is the text), arrays repeat their element, objects
 * are child elements; an element with neither text nor children closes itself.
 */
function element(out: string[], name: string, fields: Payload, xmlns?: string): void {
  let attributes = xmlns ? ` xmlns="${xmlns}"` : '';
  let text = '';
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (key === 'value' && isScalar(value)) text = escapeText(String(value));
    else if (typeof value === 'string') attributes += ` ${key}="${escapeAttribute(value)}"`;
    else if (isScalar(value)) attributes += ` ${key}="${String(value)}"`;
  }
  const opened = out.length;
  out.push(`<${name}${attributes}>`);
  if (text) out.push(text);
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || value === null || isScalar(value)) continue;
    if (value instanceof TextElement) out.push(`<${key}>${escapeText(value.text)}</${key}>`);
    else if (Array.isArray(value)) for (const item of value as unknown[]) child(out, key, item);
    else child(out, key, value);
  }
  if (out.length === opened + 1) out[opened] = `<${name}${attributes}/>`;
  else out.push(`</${name}>`);
}

function child(out: string[], name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (isScalar(value)) out.push(`<${name}>${escapeText(String(value))}</${name}>`);
  else element(out, name, value as Payload);
}

/**
 * Anything XML 1.0 cannot carry, or a surrogate (a lone one cannot be carried either), by UTF-16
 * unit: most strings hold none, and are then used as they are.
 */
const NOT_PLAIN_XML = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd]/;
const TEXT_ESCAPES = /[&<>]/;
const ATTRIBUTE_ESCAPES = /[&<>"\t\n\r]/;

/** Drops what XML 1.0 cannot carry at all, even escaped: most control characters, lone surrogates. */
function xmlSafe(value: string): string {
  if (!NOT_PLAIN_XML.test(value)) return value;
  let out = '';
  for (const char of value) {
    const c = char.codePointAt(0)!;
    if (
      c === 0x9 ||
      c === 0xa ||
      c === 0xd ||
      (c >= 0x20 && c <= 0xd7ff) ||
      (c >= 0xe000 && c <= 0xfffd) ||
      c > 0xffff
    )
      out += char;
  }
  return out;
}

function escapeText(value: string): string {
  if (!TEXT_ESCAPES.test(value) && !NOT_PLAIN_XML.test(value)) return value;
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_ESCAPES.test(value) && !NOT_PLAIN_XML.test(value)) return value;
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

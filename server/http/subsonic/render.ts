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
  return {
    text: `<?xml version="1.0" encoding="UTF-8"?>\n${element('subsonic-response', body, XMLNS)}`,
    type: 'text/xml; charset=utf-8',
  };
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function element(name: string, fields: Payload, xmlns?: string): string {
  let attributes = xmlns ? ` xmlns="${xmlns}"` : '';
  let children = '';
  let text = '';
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (key === 'value' && isScalar(value)) text = escapeText(String(value));
    else if (isScalar(value)) attributes += ` ${key}="${escapeAttribute(String(value))}"`;
    else if (value instanceof TextElement) children += `<${key}>${escapeText(value.text)}</${key}>`;
    else if (Array.isArray(value)) for (const item of value as unknown[]) children += child(key, item);
    else children += child(key, value);
  }
  const content = text + children;
  return content ? `<${name}${attributes}>${content}</${name}>` : `<${name}${attributes}/>`;
}

function child(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (isScalar(value)) return `<${name}>${escapeText(String(value))}</${name}>`;
  return element(name, value as Payload);
}

/** Drops what XML 1.0 cannot carry at all, even escaped: most control characters, lone surrogates. */
function xmlSafe(value: string): string {
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
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/**
 * Whether a request's Accept-Encoding takes gzip (as RFC 9110 reads it): `gzip` or `*` listed with a
 * weight above zero, and gzip not refused by name. Players ask for it as a matter of course
 * (OkHttp on Android, NSURLSession on iOS, browsers), and unpack it themselves.
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let named: boolean | undefined;
  let any = false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const taken = Number.isFinite(weight) && weight > 0;
    if (coding === 'gzip' || coding === 'x-gzip') named = taken;
    else if (coding === '*') any = taken;
  }
  return named ?? any;
}

import { forwardingSchema } from '../../../contract/forwarding.js';
import type { ForwardingService } from '../../../services/forwarding/forwarding-service.js';
import { text } from '../../params.js';
import { callerOf, endpoint } from '../../endpoint.js';

/** The longest service address taken. */
const URL_CHARS = 512;

/**
 * The API root of a ListenBrainz-compatible service: http or https, a host, no user name or
 * password (the token is the only credential, and it is kept sealed), no query or fragment.
 */
const serviceUrl = text(URL_CHARS)
  .refine(isServiceUrl, {
    message: 'must be an http:// or https:// address without user name, password, query or fragment',
  })
  .optional()
  .meta({
    description: `The service's API root, default https://api.listenbrainz.org (MELON_LISTENBRAINZ_URL) or a self-hosted ListenBrainz, Maloja or Koito (…/apis/listenbrainz); at most ${URL_CHARS} characters`,
  });

const token = text(256)
  .refine((value) => !/[\s\p{Cc}]/u.test(value), { message: 'must not contain spaces or control characters' })
  .optional()
  .meta({ description: 'The ListenBrainz user token; absent or null turns forwarding off' });

function isServiceUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    !value.includes('?') &&
    !value.includes('#')
  );
}

export function forwardingHandlers(forwarding: ForwardingService) {
  return {
    get: endpoint({
      summary: "Where the caller's plays are forwarded, and how sending goes (never the token)",
      response: forwardingSchema,
      errors: { 401: ['forbidden_role'] },
      handle: ({ request }) => forwarding.get(callerOf(request)),
    }),
    set: endpoint({
      summary: "Forward the caller's plays to ListenBrainz (or a compatible service), or stop",
      description:
        'With a token, new plays from every player and scrobbler go to the service; without one, forwarding stops and the outbox is emptied.',
      params: { url: serviceUrl, token },
      response: forwardingSchema,
      errors: { 401: ['forbidden_role'] },
      handle: ({ params, request }) => forwarding.set(callerOf(request), params),
    }),
  };
}

/**
 * The page's place in its address: `#view?key=value…`, so Back, Forward and reload restore the
 * view, and the statistics' person, range and device. Views change their parameters with `setParams`
 * (a history entry without re-rendering); navigating between views changes the hash.
 */
export interface Place {
  view: string;
  params: URLSearchParams;
}

export function currentPlace(hash = location.hash): Place {
  const raw = hash.replace(/^#/, '');
  const at = raw.indexOf('?');
  return {
    view: at < 0 ? raw : raw.slice(0, at),
    params: new URLSearchParams(at < 0 ? '' : raw.slice(at + 1)),
  };
}

export function hrefOf(view: string, params: Record<string, string | null | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return `#${view}${text ? `?${text}` : ''}`;
}

/** Records the view's parameters in the address; `push` adds a history entry for Back. */
export function setParams(
  view: string,
  params: Record<string, string | null | undefined>,
  push = true,
): void {
  const href = hrefOf(view, params);
  if (href === location.hash) return;
  if (push) history.pushState(null, '', href);
  else history.replaceState(null, '', href);
}

import type { Page } from '../contract/common.js';

/** A list endpoint's name search and paging (docs/API.md, Conventions). */
export interface ListQuery {
  q?: string | undefined;
  page: number;
  count: number;
}

export function pageOf<T, V>(all: readonly T[], query: ListQuery, view: (item: T) => V): Page<V> {
  const start = query.page * query.count;
  return {
    items: all.slice(start, start + query.count).map(view),
    page: query.page,
    count: query.count,
    total: all.length,
  };
}

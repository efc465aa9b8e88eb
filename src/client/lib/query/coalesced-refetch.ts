import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

interface Owed {
  /** News came while a read was on its way: one more read after it. */
  again: boolean;
  done: Promise<void>;
}

/** Per query client, the queries being read again, by their key's hash. */
const reading = new WeakMap<QueryClient, Map<string, Owed>>();

/**
 * Reads a shown query again after news of a change, at most one read in flight at a time: news
 * heard while a read is under way owes one more read once it is back, however much came. A burst
 * of live events (several counters at once) would otherwise cancel the read under way and start
 * another for each, and a busy server would answer none of them in time. Settles when the last
 * owed read is back; a query nothing shows is only marked stale, as an invalidation does.
 */
export function refetchCoalesced(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  let queries = reading.get(queryClient);
  if (!queries) reading.set(queryClient, (queries = new Map()));
  const hash = hashKey(queryKey);
  const owed = queries.get(hash);
  if (owed) {
    owed.again = true;
    return owed.done;
  }
  const fresh: Owed = { again: false, done: Promise.resolve() };
  const running = queries;
  fresh.done = (async () => {
    try {
      let more = true;
      while (more) {
        fresh.again = false;
        // A read already on its way (a first load, 'Load more') may have left before the news.
        const under = queryClient.getQueryState(queryKey)?.fetchStatus === 'fetching';
        await queryClient.invalidateQueries({ queryKey, exact: true }, { cancelRefetch: false });
        more = fresh.again || under;
      }
    } finally {
      running.delete(hash);
    }
  })();
  queries.set(hash, fresh);
  return fresh.done;
}

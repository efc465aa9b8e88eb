import {
  useMutation,
  useQueryClient,
  type DefaultError,
  type QueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { useCatalogueRef, type CatalogueRef } from '@/lib/catalogue-ref.js';
import { needsConnection } from '@/lib/needs-connection.js';
import { queryKeys } from '@/lib/query/query-client.js';

interface ProductWrite<Variables, Data> {
  /** What the write is for, in the refusal said offline ("Creating products"). */
  action: string;
  send: (catalogue: CatalogueRef, variables: Variables) => Promise<Data>;
  /** Brings the cache up to date after a success, before the screen's own onSuccess. */
  refresh: (queries: QueryClient, catalogue: CatalogueRef, variables: Variables) => unknown;
  mutationConfig?:
    Omit<UseMutationOptions<Data, DefaultError, Variables>, 'mutationFn'> | undefined;
}

/**
 * A write to the shown catalogue's products that needs the connection (lib/needs-connection): the
 * mutation every product form and button sends through, unlike stock changes, which may wait.
 */
export function useProductWrite<Variables, Data>({
  action,
  send,
  refresh,
  mutationConfig,
}: ProductWrite<Variables, Data>) {
  const queryClient = useQueryClient();
  const catalogue = useCatalogueRef();
  const { onSuccess, ...config } = mutationConfig ?? {};
  return useMutation({
    ...config,
    mutationFn: needsConnection(action, (variables: Variables) => send(catalogue, variables)),
    onSuccess: async (data, variables, ...rest) => {
      await refresh(queryClient, catalogue, variables);
      await onSuccess?.(data, variables, ...rest);
    },
  });
}

/** Deleted products leave the cache, and the list is asked for again. */
export function removeProducts(queries: QueryClient, catalogue: CatalogueRef, ids: string[]) {
  for (const id of ids) queries.removeQueries({ queryKey: queryKeys.product(catalogue, id) });
  return queries.invalidateQueries({ queryKey: queryKeys.products(catalogue) });
}

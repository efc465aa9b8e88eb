interface ListStatusProps {
  /** The list's query, as TanStack Query gives it. */
  query: { isPending: boolean; isSuccess: boolean; data?: readonly unknown[] | undefined };
  /** Said while the list loads ("Loading orders…"). */
  loading: string;
  /** Said when it has no rows ("No purchase orders yet."). */
  empty: string;
}

/** What a list's card says in place of rows: that they load, or that there are none. */
export function ListStatus({ query, loading, empty }: ListStatusProps) {
  const text = query.isPending
    ? loading
    : query.isSuccess && query.data?.length === 0
      ? empty
      : undefined;
  return text === undefined ? null : <p className="p-4 text-sm text-gray-600">{text}</p>;
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query/query-client.js';

/** GET /dev/mails → {mails}: only outside production and without SMTP. */
const getMails = async (signal?: AbortSignal) => {
  const { mails } = await apiRequest(
    // Loaded beside the request, not before it (lib/api-client.ts).
    () => import('@shared/schemas/dev-mail.js').then((m) => m.devMailboxResponseSchema),
    { url: '/dev/mails', signal },
  );
  return mails;
};

/** Polled, so a code shows up moments after it was sent. */
const mailsQueryOptions = queryOptions({
  queryKey: queryKeys.devMails,
  queryFn: ({ signal }) => getMails(signal),
  refetchInterval: 3000,
  retry: false,
});

export const useMails = () => useQuery(mailsQueryOptions);

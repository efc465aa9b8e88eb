import { queryOptions, useQuery } from '@tanstack/react-query';
import { devMailboxResponseSchema } from '@shared/schemas/dev-mail.js';
import { apiRequest } from '@/lib/api-client.js';

/** GET /dev/mails → {mails}: only outside production and without SMTP. */
const getMails = async (signal?: AbortSignal) => {
  const { mails } = await apiRequest(devMailboxResponseSchema, { url: '/dev/mails', signal });
  return mails;
};

/** Polled, so a code shows up moments after it was sent. */
const mailsQueryOptions = queryOptions({
  queryKey: ['devMails'],
  queryFn: ({ signal }) => getMails(signal),
  refetchInterval: 3000,
  retry: false,
});

export const useMails = () => useQuery(mailsQueryOptions);

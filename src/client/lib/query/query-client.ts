import {
  QueryClient,
  type DefaultError,
  type Query,
  type UseMutationOptions,
} from '@tanstack/react-query';
import { isUnreachable } from '../api-error.js';
import { catalogueKey, type CatalogueRef } from '../catalogue-ref.js';

/** How often a screen that could not be read at all tries again while the server is away. */
const RETRY_UNREAD_MS = 5_000;

/**
 * A read that failed with nothing to show (no earlier data) because the server could not be
 * reached or answered 5xx: tried again every few seconds, so that the screen fills by itself once
 * the server is back, even without the browser's 'online' event (a server that was down).
 */
const retryWhileUnreachable = (query: Query) =>
  query.state.status === 'error' &&
  // Data never read from the server (a product seeded from the list, updatedAt 0) is no answer.
  (query.state.data === undefined || query.state.dataUpdatedAt === 0) &&
  isUnreachable(query.state.error)
    ? RETRY_UNREAD_MS
    : false;

/**
 * A screen that opens offline with data from an earlier visit (restored from the saved cache)
 * shows it as it is: refetching could only fail, and the failure would replace the data with an
 * error on screens that show errors first. It is refreshed once the connection is back
 * (refetchOnReconnect). Without data the request still goes (see networkMode below).
 */
const refetchOnMountUnlessOfflineWithData = (query: Query) =>
  navigator.onLine || query.state.data === undefined;

/**
 * How long what a user saw stays readable offline (lib/query/query-persistence.ts saves the cache), and
 * so how long the cache keeps a data set no screen shows: one dropped from memory is not saved.
 */
export const KEPT_FOR_OFFLINE_MS = 24 * 60 * 60 * 1000;

/**
 * Each query sets its own retries; mutations never retry. Requests go out even
 * when the browser says it is offline ('always'; TanStack's default pauses them until it is back
 * online, which left 'Logging in...' and the list's spinner up forever): the request fails at
 * once and the screen says the server cannot be reached. Queries still refetch on reconnect, and
 * one that could not be read at all tries again on its own.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      gcTime: KEPT_FOR_OFFLINE_MS,
      refetchOnMount: refetchOnMountUnlessOfflineWithData,
      networkMode: 'always',
      refetchInterval: retryWhileUnreachable,
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});

/**
 * The cached data sets, by name; every query key of the app starts here. A catalogue's data sets
 * carry its key (lib/catalogue-ref.ts) second, so that catalogues never share an entry and one
 * catalogue's can be refreshed or dropped alone.
 */
export const queryKeys = {
  user: ['user'] as const,
  /** The signed-in user's preferences (the profile's options). */
  preferences: ['preferences'] as const,
  /** Whether two-factor sign-in is on, and the recovery codes left. */
  twoFactor: ['twoFactor'] as const,
  /** The user's passkeys. */
  passkeys: ['passkeys'] as const,
  /** Where the user is signed in. */
  sessions: ['sessions'] as const,
  /** The catalogues the user belongs to, with their role in each. */
  catalogues: ['catalogues'] as const,
  /** A catalogue's members (its settings screen). */
  members: (catalogueId: string) => ['catalogues', catalogueId, 'members'] as const,
  /** A catalogue's pending invitations (its settings screen). */
  sentInvitations: (catalogueId: string) => ['catalogues', catalogueId, 'invitations'] as const,
  /** The invitations waiting for the user. */
  invitations: ['invitations'] as const,
  /** Everything of every catalogue's list: pages and summaries. */
  allProducts: ['products'] as const,
  /** Everything of one catalogue's list: its pages per search, sort and filter, and summaries. */
  products: (catalogue: CatalogueRef) => ['products', catalogueKey(catalogue)] as const,
  /** One search, sort and stock filter of the list, paged. */
  productList: (catalogue: CatalogueRef, params: object) =>
    ['products', catalogueKey(catalogue), params] as const,
  /** Every summary line of the list (count, units, value), refreshed with the list. */
  productSummaries: (catalogue: CatalogueRef) =>
    ['products', catalogueKey(catalogue), 'summary'] as const,
  productSummary: (catalogue: CatalogueRef, params: object) =>
    ['products', catalogueKey(catalogue), 'summary', params] as const,
  /** Every product of every catalogue read by id ('editProduct', the catalogue, the id). */
  productById: ['editProduct'] as const,
  /** Every product of one catalogue read by id. */
  catalogueProducts: (catalogue: CatalogueRef) => ['editProduct', catalogueKey(catalogue)] as const,
  product: (catalogue: CatalogueRef, id: string) =>
    ['editProduct', catalogueKey(catalogue), id] as const,
  /** A product's last stock movements: under its key, so they go and refresh with it. */
  movements: (catalogue: CatalogueRef, id: string) =>
    ['editProduct', catalogueKey(catalogue), id, 'movements'] as const,
  /** Every page of a catalogue's activity log, whatever the filters (features/activity). */
  activity: (catalogue: CatalogueRef) => ['activity', catalogueKey(catalogue)] as const,
  activityList: (catalogue: CatalogueRef, params: object) =>
    ['activity', catalogueKey(catalogue), params] as const,
  /** Every count of a catalogue: the list and each count's lines (lib/counts). */
  counts: (catalogue: CatalogueRef) => ['counts', catalogueKey(catalogue)] as const,
  countList: (catalogue: CatalogueRef) => ['counts', catalogueKey(catalogue), 'list'] as const,
  /** One count and its pages of lines. */
  count: (catalogue: CatalogueRef, id: string) =>
    ['counts', catalogueKey(catalogue), 'count', id] as const,
  /** A reset code from a link, checked once (features/auth ResetPassword). */
  resetCode: (token: string, email: string | undefined) => ['resetCode', token, email] as const,
  /** The development mailbox. */
  devMails: ['devMails'] as const,
};

/**
 * What a screen may add to a mutation hook of a feature's api/ (`useCreateProduct({
 * mutationConfig })`): its own effects, such as a toast or a navigation. The hook owns the
 * request's effects on the cache and the session, runs them first, then the screen's onSuccess.
 */
export type MutationConfig<Request extends (variables: never) => Promise<unknown>> = Omit<
  UseMutationOptions<Awaited<ReturnType<Request>>, DefaultError, Parameters<Request>[0]>,
  'mutationFn'
>;

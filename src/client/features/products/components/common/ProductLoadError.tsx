import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { M } from '@shared/messages.js';
import { tabTitle } from '@/lib/texts.js';
import { ErrorMessage } from '@/components/ui/Alert.js';
import { Button } from '@/components/ui/Button.js';
import { getErrorMessage, getErrorStatus } from '@/lib/api-error.js';

/** The title of the detail and edit pages of a product that is not there. */
const PRODUCT_NOT_FOUND = M.productNotFound;

/** The product is not there (an unknown id, or another user's: the API says 404 for both). */
export const isProductMissing = (query: Pick<UseQueryResult, 'error'>) =>
  getErrorStatus(query.error) === 404;

/** What a failed load's message and Retry need of a query (of one item or of pages). */
export type LoadQuery = Pick<UseQueryResult, 'error' | 'isFetching' | 'refetch'>;

/** 'Retry' for a failed load: it reads 'Retrying...' while the query runs again. */
export function RetryButton({ query }: { query: LoadQuery }) {
  return (
    <Button
      variant="secondary"
      busy={query.isFetching}
      busyLabel="Retrying..."
      onClick={() => void query.refetch()}
    >
      Retry
    </Button>
  );
}

/** A failed product load: the message in red, centred, and a way to try again. */
export function ProductLoadError({ query }: { query: LoadQuery }) {
  return (
    <div className="text-center">
      <ErrorMessage>{getErrorMessage(query.error)}</ErrorMessage>
      <RetryButton query={query} />
    </div>
  );
}

/**
 * The detail or edit page of a product that is not there: the API's message is the page's title,
 * in red and centred like every load failure, with the way back.
 */
export function ProductMissing({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-4 text-center">
      <title>{tabTitle(PRODUCT_NOT_FOUND)}</title>
      <h1 className="text-3xl font-bold tracking-tight text-red-700">{PRODUCT_NOT_FOUND}</h1>
      <p className="text-base text-gray-600">It may have been deleted, or the link is not right.</p>
      {children}
    </div>
  );
}

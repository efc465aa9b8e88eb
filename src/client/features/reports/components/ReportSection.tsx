import type { ReactNode } from 'react';
import { Card } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useDownloadReport } from '../api/download-report.js';
import { reportsUrl, type ReportName } from '../api/reports-url.js';

/** A report's card: its heading, its 'Download CSV' link, and its content. */
export function ReportSection({
  id,
  title,
  name,
  params,
  children,
}: {
  id: string;
  title: string;
  name: ReportName;
  params?: Record<string, number>;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0 p-4 sm:p-6">
      <section aria-labelledby={id} className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id={id} className="text-lg font-semibold text-gray-900">
            {title}
          </h2>
          <DownloadLink name={name} params={params} />
        </div>
        {children}
      </section>
    </Card>
  );
}

/** 'Download CSV': a link to the file, fetched with the token when followed; none without the right. */
function DownloadLink({ name, params }: { name: ReportName; params?: Record<string, number> }) {
  const download = useDownloadReport();
  const catalogue = useCatalogueRef();
  // A role that may not export (stock) reads the reports but gets no file.
  const may = useCatalogueCan();
  if (!may('export')) return null;
  const query = params
    ? `?${new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString()}`
    : '';
  return (
    <a
      href={`/api${reportsUrl(catalogue, `${name}.csv`)}${query}`}
      aria-busy={download.isPending}
      onClick={(event) => {
        event.preventDefault();
        if (!download.isPending) download.mutate({ name, params });
      }}
      className="text-sm font-semibold text-indigo-700 hover:underline"
    >
      Download CSV
    </a>
  );
}

/** What a report shows while it loads, or when it fails. */
export function ReportStatus({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  children: ReactNode;
}) {
  if (query.isPending) return <PageSpinner label="Loading the report..." />;
  if (query.isError && !query.data) {
    return (
      <p role="alert" className="font-medium text-red-700">
        {getErrorMessage(query.error)}
      </p>
    );
  }
  return children;
}

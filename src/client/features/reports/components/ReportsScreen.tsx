import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { ReportPeriod } from '@shared/schemas/reports.js';
import { Card } from '@/components/ui/Card.js';
import { Segmented } from '@/components/ui/Segmented.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { ScrollRegion, TableHead, tableCell } from '@/components/ui/Table.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { formatCount, formatDateTime, formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { tabTitle } from '@/lib/texts.js';
import { useDeadStock } from '../api/get-dead-stock.js';
import { useStockOverTime } from '../api/get-stock-over-time.js';
import { useToReorder } from '../api/get-to-reorder.js';
import { useTopMovers } from '../api/get-top-movers.js';
import { useDownloadReport } from '../api/download-report.js';
import { reportsUrl, type ReportName } from '../api/reports-url.js';
import { StockChart } from './StockChart.js';

const PERIODS = [
  { value: 30, label: '30 days' },
  { value: 90, label: '90 days' },
  { value: 365, label: '365 days' },
] as const satisfies readonly { value: ReportPeriod; label: string }[];

/** `/reports` and `/catalogues/:catalogueId/reports`: the catalogue's stock reports. */
export function ReportsScreen() {
  const [days, setDays] = useState<ReportPeriod>(30);
  return (
    <div className="mx-auto max-w-5xl min-w-0 space-y-6">
      <title>{tabTitle('Reports')}</title>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-gray-900 sm:text-3xl">Reports</h1>
          <p className="mt-1 text-sm text-gray-600">
            How stock moved, what sits still and what to order. Days are UTC days.
          </p>
        </div>
        <Segmented label="Period" options={PERIODS} value={days} onChange={setDays} />
      </div>
      <StockOverTimeSection days={days} />
      <TopMoversSection days={days} />
      <DeadStockSection />
      <ToReorderSection />
    </div>
  );
}

/** A report's card: its heading, its 'Download CSV' link, and its content. */
function Section({
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
function Status({
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

const numeric = `${tableCell} text-right tabular-nums`;

function StockOverTimeSection({ days }: { days: ReportPeriod }) {
  const report = useStockOverTime(days);
  const [asTable, setAsTable] = useState(false);
  const points = report.data?.days ?? [];
  const last = points.at(-1);
  return (
    <Section id="stock-over-time" title="Stock over time" name="stock-over-time" params={{ days }}>
      <Status query={report}>
        {last && (
          <p className="text-sm text-gray-700">
            Today: <span className="font-semibold">{formatCount(last.units)} units</span> worth{' '}
            <span className="font-semibold">{formatPrice(last.value)}</span> at today&apos;s prices.
          </p>
        )}
        <StockChart
          days={points}
          label={`Stock value and units at the end of each of the last ${days} days`}
        />
        <button
          type="button"
          aria-pressed={asTable}
          onClick={() => setAsTable((shown) => !shown)}
          className="text-sm font-semibold text-indigo-700 hover:underline"
        >
          Show as table
        </button>
        {/* The chart's figures for screen readers always; on screen once asked for. */}
        <div className={asTable ? '' : 'sr-only'}>
          <ScrollRegion label="Daily figures" className="max-h-96">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Units and value at the end of each day</caption>
              <TableHead
                columns={[
                  { label: 'Date' },
                  { label: 'Units', numeric: true },
                  { label: 'Value', numeric: true },
                ]}
              />
              <tbody className="divide-y divide-gray-100">
                {points.map((point) => (
                  <tr key={point.date}>
                    <td className={`${tableCell} whitespace-nowrap`}>{point.date}</td>
                    <td className={numeric}>{formatCount(point.units)}</td>
                    <td className={numeric}>{formatPrice(point.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </div>
      </Status>
    </Section>
  );
}

/** A product's name, linking to it in this catalogue. */
function ProductLink({ id, name }: { id: string; name: string }) {
  const catalogue = useCatalogueRef();
  return (
    <Link
      to={paths.products.details.getHref(id, catalogue)}
      className="font-medium break-words text-gray-900 hover:text-indigo-700 hover:underline"
    >
      {name}
    </Link>
  );
}

function TopMoversSection({ days }: { days: ReportPeriod }) {
  const report = useTopMovers(days);
  return (
    <Section id="top-movers" title="Top movers" name="top-movers" params={{ days }}>
      <Status query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty={`No stock moved in the last ${days} days.`}
          label="Products that moved the most"
          columns={[
            { label: 'In', numeric: true },
            { label: 'Out', numeric: true },
            { label: 'Moved', numeric: true },
          ]}
          cells={(product) => [
            formatCount(product.unitsIn),
            formatCount(product.unitsOut),
            formatCount(product.moved),
          ]}
        />
      </Status>
    </Section>
  );
}

function DeadStockSection() {
  const report = useDeadStock();
  return (
    <Section id="dead-stock" title="No movement in 90 days" name="dead-stock">
      <Status query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty="Every product with stock moved in 90 days."
          label="Products with stock that did not move"
          columns={[
            { label: 'Stock', numeric: true },
            { label: 'Value', numeric: true },
            { label: 'Last moved' },
          ]}
          cells={(product) => [
            formatCount(product.stock),
            formatPrice(product.value),
            formatDateTime(product.lastMovedAt),
          ]}
        />
      </Status>
    </Section>
  );
}

function ToReorderSection() {
  const report = useToReorder();
  return (
    <Section id="to-reorder" title="To reorder" name="to-reorder">
      <Status query={report}>
        <ProductTable
          products={report.data?.products ?? []}
          empty="Nothing is at or below its reorder point."
          label="Products at or below their reorder point"
          columns={[
            { label: 'Stock', numeric: true },
            { label: 'Reorder point', numeric: true },
            { label: 'To order', numeric: true },
          ]}
          cells={(product) => [
            formatCount(product.stock),
            formatCount(product.reorderPoint),
            formatCount(product.toOrder),
          ]}
        />
      </Status>
    </Section>
  );
}

interface Column {
  label: string;
  numeric?: boolean;
}

/**
 * A report's products as a table: the product's name (a link to it) and then `columns`, whose
 * cells `cells` gives for each product; `empty` when there is none.
 */
function ProductTable<P extends { id: string; name: string }>({
  products,
  empty,
  label,
  columns,
  cells,
}: {
  products: P[];
  empty: string;
  label: string;
  columns: Column[];
  cells: (product: P) => ReactNode[];
}) {
  if (products.length === 0) return <p className="text-sm text-gray-600">{empty}</p>;
  return (
    <ScrollRegion label={label}>
      <table className="min-w-full text-sm">
        <TableHead columns={[{ label: 'Product' }, ...columns]} />
        <tbody className="divide-y divide-gray-100">
          {products.map((product) => (
            <tr key={product.id}>
              <td className={tableCell}>
                <ProductLink id={product.id} name={product.name} />
              </td>
              {cells(product).map((cell, index) => (
                <td
                  key={columns[index]!.label}
                  className={columns[index]!.numeric ? numeric : tableCell}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

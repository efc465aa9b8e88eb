import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { ACTIVITY_KINDS } from '@shared/activity.js';
import { Card } from '@/components/ui/Card.js';
import { ScreenHeading } from '@/components/ui/ScreenHeading.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { useUser } from '@/lib/session/get-user.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Button } from '@/components/ui/Button.js';
import { activityFiltersOf, useActivity } from '../api/get-activity.js';
import { useMembers } from '../api/get-members.js';
import { useProductSearch } from '../api/search-products.js';
import { ActivityList } from './ActivityList.js';
import { KIND_LABELS } from './describe.js';

type FilterName = 'product' | 'member' | 'kind' | 'from' | 'to';
const fieldClasses =
  'block w-full rounded-md border-0 px-3 py-1.5 text-sm text-gray-900 ring-1 ring-gray-300 ring-inset focus:ring-2 focus:ring-indigo-600';
const labelClasses = 'block text-xs font-semibold text-gray-700';

/**
 * `/activity` and `/catalogues/:catalogueId/activity`: who changed what, newest first, narrowed by
 * product, member, kind and dates (all kept in the URL), with 'Load more' and 'Undo'.
 */
export function ActivityScreen() {
  const catalogue = useCatalogueRef();
  const [params, setParams] = useSearchParams();
  const filters = activityFiltersOf(params);
  const setFilter = (name: FilterName, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const activity = useActivity(catalogue, filters);
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  const productName = entries.find((entry) => entry.product?.id === filters.product)?.product?.name;

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <ScreenHeading
        title="Activity"
        description="Who changed what, newest first. Stock changes, edits and deletes can be undone for 7 days."
      />
      <Card className="p-4 sm:p-6">
        <form
          aria-label="Filters"
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5"
          onSubmit={(event) => event.preventDefault()}
        >
          <ProductFilter
            selected={filters.product}
            selectedName={productName}
            onChange={(id) => setFilter('product', id)}
          />
          <MemberFilter value={filters.member ?? ''} onChange={(id) => setFilter('member', id)} />
          <FilterSelect
            name="kind"
            label="Kind"
            value={filters.kind ?? ''}
            onChange={(kind) => setFilter('kind', kind)}
          >
            <option value="">All kinds</option>
            {ACTIVITY_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </FilterSelect>
          <DateFilter name="from" label="From" value={filters.from} onChange={setFilter} />
          <DateFilter name="to" label="To" value={filters.to} onChange={setFilter} />
        </form>
      </Card>
      <Card className="overflow-hidden">
        {activity.isPending ? (
          <PageSpinner label="Loading activity..." />
        ) : activity.isError && !activity.data ? (
          <p role="alert" className="px-6 py-8 text-center font-medium text-red-700">
            {getErrorMessage(activity.error)}
          </p>
        ) : entries.length === 0 ? (
          <p className="px-6 py-8 text-center text-sm text-gray-600">No activity found.</p>
        ) : (
          <ActivityList catalogue={catalogue} entries={entries} />
        )}
      </Card>
      {activity.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="secondary"
            disabled={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

/** 'Product': a search of the catalogue's products by name; the one chosen narrows the log. */
function ProductFilter({
  selected,
  selectedName,
  onChange,
}: {
  selected: string | undefined;
  selectedName: string | undefined;
  onChange: (id: string) => void;
}) {
  const catalogue = useCatalogueRef();
  const [text, setText] = useState('');
  const found = useProductSearch(catalogue, text);
  if (selected) {
    return (
      <div>
        <span className={labelClasses}>Product</span>
        <p className="flex items-center gap-2 py-1.5 text-sm">
          <span className="min-w-0 truncate font-medium text-gray-900">
            {selectedName ?? 'One product'}
          </span>
          <button
            type="button"
            className="text-xs font-semibold text-indigo-700 hover:underline"
            onClick={() => onChange('')}
          >
            Clear
          </button>
        </p>
      </div>
    );
  }
  const products = text.trim() ? (found.data ?? []) : [];
  return (
    <div className="relative">
      <label htmlFor="activity-product" className={labelClasses}>
        Product
      </label>
      <input
        id="activity-product"
        type="search"
        placeholder="Search by name"
        className={fieldClasses}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {products.length > 0 && (
        <ul className="absolute z-10 mt-1 w-full rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-gray-200">
          {products.map((product) => (
            <li key={product.id}>
              <button
                type="button"
                className="block w-full px-3 py-1.5 text-left hover:bg-gray-100"
                onClick={() => {
                  setText('');
                  onChange(product.id);
                }}
              >
                {product.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** 'Member': the catalogue's members (the personal catalogue's is the user alone). */
function MemberFilter({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const catalogue = useCatalogueRef();
  const user = useUser().data;
  const members = useMembers(catalogue ?? user?.id ?? '');
  return (
    <FilterSelect name="member" label="Member" value={value} onChange={onChange}>
      <option value="">Everyone</option>
      {(members.data ?? []).map(({ user: person }) => (
        <option key={person.id} value={person.id}>
          {person.id === user?.id ? 'You' : person.name}
        </option>
      ))}
    </FilterSelect>
  );
}

/** One end of the period shown: a day, or none. */
function DateFilter({
  name,
  label,
  value,
  onChange,
}: {
  name: 'from' | 'to';
  label: string;
  value: string | undefined;
  onChange: (name: FilterName, value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={`activity-${name}`} className={labelClasses}>
        {label}
      </label>
      <input
        id={`activity-${name}`}
        type="date"
        className={fieldClasses}
        value={value ?? ''}
        onChange={(event) => onChange(name, event.target.value)}
      />
    </div>
  );
}

/** A filter chosen from a list: its options are the children. */
function FilterSelect({
  name,
  label,
  value,
  onChange,
  children,
}: {
  name: FilterName;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={`activity-${name}`} className={labelClasses}>
        {label}
      </label>
      <select
        id={`activity-${name}`}
        className={fieldClasses}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}

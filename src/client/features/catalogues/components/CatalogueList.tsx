import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { ROLE_LABELS } from '@shared/catalogue-roles.js';
import { paths } from '@/lib/paths.js';
import { useCatalogues } from '@/lib/catalogues/get-catalogues.js';

const itemClasses =
  'flex w-full items-center justify-between gap-3 px-4 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus:bg-gray-100 focus:text-gray-900 focus:outline-none';

/**
 * The switcher's panel: each of the user's catalogues with the user's role in it (the current one
 * marked), then 'Invite people' to the current one (for those who may) and 'Manage catalogues'.
 * Focus moves to its first link as it opens.
 */
export function CatalogueList({
  id,
  currentId,
  canInvite,
}: {
  id: string;
  currentId: string | undefined;
  canInvite: boolean;
}) {
  const catalogues = useCatalogues();
  const panel = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    panel.current?.querySelector<HTMLElement>('a')?.focus();
  }, [catalogues.data]);
  return (
    <nav
      ref={panel}
      id={id}
      aria-label="Catalogues"
      className="absolute top-full left-0 z-30 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl bg-white py-1 shadow-lg ring-1 ring-gray-900/5"
    >
      {catalogues.isPending && <p className="px-4 py-2 text-sm text-gray-600">Loading...</p>}
      {catalogues.isError && !catalogues.data && (
        <p className="px-4 py-2 text-sm text-red-700">Your catalogues could not be loaded.</p>
      )}
      <ul>
        {catalogues.data?.map((catalogue) => (
          <li key={catalogue.id}>
            <Link
              to={paths.products.list.getHref(catalogue.personal ? undefined : catalogue.id)}
              aria-current={catalogue.id === currentId ? 'page' : undefined}
              className={`${itemClasses} ${catalogue.id === currentId ? 'font-semibold' : ''}`}
            >
              <span className="min-w-0 truncate">{catalogue.name}</span>
              <span className="shrink-0 text-xs text-gray-600">{ROLE_LABELS[catalogue.role]}</span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-1 border-t border-gray-200 pt-1">
        {canInvite && currentId && (
          <Link to={paths.catalogue.settings.getHref(currentId, 'invite')} className={itemClasses}>
            Invite people
          </Link>
        )}
        <Link to={paths.catalogues.getHref()} className={itemClasses}>
          Manage catalogues
        </Link>
      </div>
    </nav>
  );
}

import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { useUser } from '@/lib/session/get-user.js';
import { paths } from '@/lib/paths.js';
import { tabTitle } from '@/lib/texts.js';
import { useCatalogues } from '@/lib/catalogues/get-catalogues.js';
import { useCurrentCatalogue } from '@/lib/catalogues/current-catalogue.js';
import { RoleBadge } from './RoleBadge.js';

/**
 * A shared catalogue's screens (`/catalogues/:catalogueId/…`): over them, the catalogue's name,
 * the user's role in it and the way to its settings. A catalogue that is not one of the user's
 * is not found; the personal one's own screens are at their usual addresses.
 */
export function CatalogueLayout() {
  const current = useCurrentCatalogue();
  const catalogues = useCatalogues();
  const user = useUser().data;
  const { pathname } = useLocation();
  const settingsHref = current.ref ? paths.catalogue.settings.getHref(current.ref) : '';
  const onSettings = pathname === settingsHref;
  // The personal catalogue's screens keep their own addresses; only its settings live here.
  if (current.ref === user?.id && !onSettings) {
    return <Navigate to={paths.products.list.getHref()} replace />;
  }
  if (!current.known) {
    if (catalogues.isPending) return <PageSpinner label="Loading the catalogue..." />;
    if (catalogues.isError && !catalogues.data) {
      return (
        <p role="alert" className="py-16 text-center font-medium text-red-700">
          The catalogue could not be loaded. Check your connection and try again.
        </p>
      );
    }
    return <CatalogueNotFound />;
  }
  return (
    <div className="space-y-4 sm:space-y-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 truncate font-semibold text-gray-900">{current.name}</span>
        {!current.personal && <RoleBadge role={current.role} />}
        {!onSettings && (
          <Link
            to={settingsHref}
            className="ml-auto font-semibold text-indigo-700 underline-offset-2 hover:underline"
          >
            Catalogue settings
          </Link>
        )}
      </div>
      <Outlet />
    </div>
  );
}

function CatalogueNotFound() {
  return (
    <div className="py-16 text-center">
      <title>{tabTitle('Catalogue not found')}</title>
      <h1 className="text-3xl font-bold tracking-tight text-gray-900">Catalogue not found</h1>
      <p className="mt-4 text-gray-600">
        This catalogue does not exist, or you are not one of its members.
      </p>
      <Link to={paths.catalogues.getHref()} className={buttonClasses('primary', 'mt-8')}>
        Your catalogues
      </Link>
    </div>
  );
}

import { Link } from 'react-router';
import type { User } from '@shared/schemas/auth.js';
import { Menu, MenuChevron, menuItemProps, menuPanelClasses } from '@/components/controls/Menu.js';
import { mayLogOutWithUnsentChanges } from '@/features/offline-queue/use-unsent-changes-check.js';
import { useLogout } from '@/lib/session/logout.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { paths } from '@/lib/paths.js';

const itemClasses =
  'block w-full px-4 py-2 text-left text-sm text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus:bg-gray-100 focus:text-gray-900 focus:outline-none';

/**
 * 'Hello {name}' and its menu: 'My Profile', the catalogue shown's 'Activity', 'Reports',
 * 'Locations', 'Counts', 'Suppliers' and 'Purchase orders', and 'Logout'. Keyboard-usable
 * (components/controls/Menu).
 */
export function UserMenu({ user }: { user: User }) {
  const logout = useLogout();
  // A shared catalogue's activity and reports inside it, else the personal one's.
  const catalogue = useCatalogueRef();
  const initial = user.name.trim().charAt(0).toUpperCase() || '?';
  return (
    <Menu
      buttonClassName="flex max-w-full min-w-0 items-center gap-3 rounded-full py-1 pr-3 pl-1 text-sm font-medium text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-400"
      menuClassName={menuPanelClasses}
      button={
        <>
          <span
            aria-hidden="true"
            className="grid size-8 shrink-0 place-items-center rounded-full bg-indigo-500 font-semibold text-white"
          >
            {initial}
          </span>
          {/* A long name is cut short with an ellipsis rather than widen the header on a phone. */}
          <span className="max-w-40 min-w-0 truncate sm:max-w-xs">Hello {user.name}</span>
          <MenuChevron className="size-4 shrink-0 text-gray-300" />
        </>
      }
    >
      <Link to={paths.profile.edit.getHref()} className={itemClasses} {...menuItemProps}>
        My Profile
      </Link>
      <Link to={paths.activity.getHref(catalogue)} className={itemClasses} {...menuItemProps}>
        Activity
      </Link>
      <Link to={paths.reports.getHref(catalogue)} className={itemClasses} {...menuItemProps}>
        Reports
      </Link>
      <Link to={paths.locations.list.getHref(catalogue)} className={itemClasses} {...menuItemProps}>
        Locations
      </Link>
      <Link to={paths.counts.list.getHref(catalogue)} className={itemClasses} {...menuItemProps}>
        Counts
      </Link>
      <Link to={paths.suppliers.getHref(catalogue)} className={itemClasses} {...menuItemProps}>
        Suppliers
      </Link>
      <Link
        to={paths.purchaseOrders.list.getHref(catalogue)}
        className={itemClasses}
        {...menuItemProps}
      >
        Purchase orders
      </Link>
      <button
        type="button"
        className={itemClasses}
        {...menuItemProps}
        onClick={() => void mayLogOutWithUnsentChanges().then((go) => go && logout.mutate())}
      >
        Logout
      </button>
    </Menu>
  );
}

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { can } from '@shared/catalogue-roles.js';
import { MenuChevron } from '@/components/controls/Menu.js';
import { useCurrentCatalogue } from '@/lib/catalogues/current-catalogue.js';

/** The list of catalogues loads with the first opening: the header itself stays this small. */
const CatalogueList = lazy(() =>
  import('../CatalogueList.js').then((m) => ({ default: m.CatalogueList })),
);

/**
 * The header's catalogue switcher: the current catalogue's name, and a panel (a disclosure, opened
 * by the button) that lists the user's catalogues with their role, and 'Manage catalogues'.
 * Escape or a press elsewhere closes it; going to another screen does too.
 */
export function CatalogueSwitcher() {
  const current = useCurrentCatalogue({ readNames: true });
  const { pathname } = useLocation();
  // Open on the screen it was opened on: going to another screen closes it.
  const [openOn, setOpenOn] = useState<string>();
  const open = openOn === pathname;
  const setOpen = (on: boolean) => setOpenOn(on ? pathname : undefined);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpenOn(undefined);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  return (
    <div
      ref={container}
      className="relative min-w-0"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`Catalogue: ${current.name}`}
        onClick={() => setOpen(!open)}
        className="flex max-w-full min-w-0 items-center gap-1 rounded-md px-2 py-1 text-sm font-semibold text-white hover:bg-gray-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        <span className="max-w-28 min-w-0 truncate sm:max-w-xs">{current.name}</span>
        <MenuChevron className="size-4 shrink-0 text-gray-300" />
      </button>
      {open && (
        <Suspense fallback={null}>
          <CatalogueList
            id={panelId}
            currentId={current.id}
            canInvite={current.known && can(current.role, 'manageMembers')}
          />
        </Suspense>
      )}
    </div>
  );
}

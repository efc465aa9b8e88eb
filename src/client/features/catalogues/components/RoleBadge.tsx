import { ROLE_LABELS, type CatalogueRole } from '@shared/catalogue-roles.js';

/** The user's role in a shared catalogue, as a small pill. */
export function RoleBadge({ role }: { role: CatalogueRole }) {
  return (
    <span className="inline-flex shrink-0 items-center rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-800 ring-1 ring-indigo-200 ring-inset">
      {ROLE_LABELS[role]}
    </span>
  );
}

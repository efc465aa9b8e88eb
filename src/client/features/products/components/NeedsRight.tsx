import type { ReactNode } from 'react';
import { can, roleCannot, type CatalogueAction } from '@shared/catalogue-roles.js';
import { Card } from '@/components/ui/Card.js';
import { useCurrentCatalogue } from '@/lib/catalogues/current-catalogue.js';

/**
 * The body of a screen whose whole purpose needs a right (creating a product, an import). The
 * screens link to it only for roles that have it, but a URL can still be typed or shared: a role
 * without the right is told what it cannot do, in the server's own 403 words, instead of a form
 * that could only be refused on submit. The screen's header keeps its way back. Until the role is
 * known (a shared catalogue's list not read yet), the screen shows as it is: the server decides.
 */
export function NeedsRight({ action, children }: { action: CatalogueAction; children: ReactNode }) {
  const { role, known } = useCurrentCatalogue();
  if (!known || can(role, action)) return children;
  return (
    <Card className="px-6 py-8 sm:px-8">
      <p className="text-base font-medium text-gray-900">{roleCannot(role, action)}</p>
      <p className="mt-2 text-sm text-gray-600">
        An owner or an admin of this catalogue can give you another role.
      </p>
    </Card>
  );
}

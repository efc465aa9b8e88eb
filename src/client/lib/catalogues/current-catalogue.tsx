import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { can, type CatalogueAction, type CatalogueRole } from '@shared/catalogue-roles.js';
import { userQueryOptions } from '@/lib/session/get-user.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { cataloguesQueryOptions } from './get-catalogues.js';

export interface CurrentCatalogue {
  /** Its id (the personal catalogue's is the user's id); undefined only before the user is known. */
  id: string | undefined;
  /** The URL's catalogue: undefined for the personal one (lib/catalogue-ref.ts). */
  ref: string | undefined;
  personal: boolean;
  name: string;
  /** The user's role: owner of the personal one; of a shared one, viewer until it is known. */
  role: CatalogueRole;
  /** Whether the user's catalogues have been read (a shared one's role is known). */
  known: boolean;
}

/**
 * The catalogue of the screen shown, from the URL, with the user's role in it (GET /catalogues).
 * Until the catalogues are read, a shared catalogue counts as read-only: nothing is offered that
 * the role might not allow. The personal catalogue's screens read nothing for it (the user owns
 * it) unless `readNames` (the header, which shows its name).
 */
export function useCurrentCatalogue({ readNames = false } = {}): CurrentCatalogue {
  const ref = useCatalogueRef();
  // The signed-in screens show once the user is known: only the cache is read here.
  const user = useQuery({ ...userQueryOptions, enabled: false }).data;
  const list = useQuery({
    ...cataloguesQueryOptions,
    enabled: readNames || ref !== undefined,
  }).data;
  if (!ref) {
    const personal = list?.find((catalogue) => catalogue.personal);
    return {
      id: personal?.id ?? user?.id,
      ref,
      personal: true,
      name: personal?.name ?? (user ? `${user.name}'s catalogue` : 'My catalogue'),
      role: 'owner',
      known: true,
    };
  }
  const shared = list?.find((catalogue) => catalogue.id === ref);
  return {
    id: ref,
    ref,
    personal: shared?.personal ?? false,
    name: shared?.name ?? 'Catalogue',
    role: shared?.role ?? 'viewer',
    known: shared !== undefined,
  };
}

const CurrentRoleContext = createContext<CatalogueRole | undefined>(undefined);

/**
 * The user's role in the screen's catalogue, read once for everything under it: a list asks for
 * it on every card, and each asking component would otherwise watch the user and the catalogues
 * itself.
 */
export function CurrentCatalogueProvider({ children }: { children: ReactNode }) {
  const { role } = useCurrentCatalogue();
  return <CurrentRoleContext value={role}>{children}</CurrentRoleContext>;
}

/**
 * Whether the user's role in the screen's catalogue allows an action (the shared role rule): the
 * screens offer only what the server would accept.
 */
export function useCatalogueCan(): (action: CatalogueAction) => boolean {
  const role = useContext(CurrentRoleContext);
  if (!role) throw new Error('useCatalogueCan is used outside a CurrentCatalogueProvider');
  return (action) => can(role, action);
}

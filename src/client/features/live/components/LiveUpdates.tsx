import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { afterPageSettles } from '@/lib/after-settled.js';
import { notifyError } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';

/** Whether a path is one of a shared catalogue's screens. */
const isInCatalogue = (pathname: string, catalogueId: string) => {
  const root = paths.products.list.getHref(catalogueId);
  return pathname === root || pathname.startsWith(`${root}/`);
};

/**
 * Keeps the signed-in user's screens up to date with changes made elsewhere (features/live). The
 * stream's code loads once the first screen has settled, outside the first visit's JavaScript;
 * it stops when the user changes or signs out (this component unmounts with the signed-in layout).
 * A catalogue the user loses while on its screens sends them to their own list, saying so.
 */
export function LiveUpdates({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Read when an event comes, not when the stream starts.
  const here = useRef({ pathname, navigate });
  useEffect(() => {
    here.current = { pathname, navigate };
  });
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    const onCatalogueRemoved = (catalogueId: string, name: string | undefined) => {
      if (!isInCatalogue(here.current.pathname, catalogueId)) return;
      notifyError(new Error(`You no longer have access to ${name ?? 'this catalogue'}`));
      void here.current.navigate(paths.products.list.getHref(), { replace: true });
    };
    const cancelStart = afterPageSettles(() => {
      import('../live-stream.js')
        .then(({ startLiveUpdates }) => {
          if (!cancelled) stop = startLiveUpdates(queryClient, { userId, onCatalogueRemoved });
        })
        .catch(() => undefined);
    });
    return () => {
      cancelled = true;
      cancelStart();
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}

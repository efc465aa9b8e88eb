import { Link } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { paths } from '@/lib/paths.js';
import type { RestoresScroll } from '@/lib/scroll-state.js';
import { lastListPlace } from './common/list-place.js';

/** 'Back to Products': to the list as the user left it (search, sort and scroll). */
export function BackToProductsLink() {
  const catalogue = useCatalogueRef();
  const place = lastListPlace();
  const state: RestoresScroll | undefined = place ? { restoreScrollY: place.scrollY } : undefined;
  return (
    <Link
      to={{ pathname: paths.products.list.getHref(catalogue), search: place?.search ?? '' }}
      state={state}
      className={buttonClasses('secondary')}
    >
      <span aria-hidden="true">←</span> Back to Products
    </Link>
  );
}

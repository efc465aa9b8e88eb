import { Link } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { paths } from '@/lib/paths.js';

/** A product's tags as small chips, each a link to the list of the products with that tag. */
export function TagChips({ tags }: { tags: readonly string[] }) {
  const catalogue = useCatalogueRef();
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={`${paths.products.list.getHref(catalogue)}?tag=${encodeURIComponent(tag)}`}
            className="inline-block rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-700 hover:bg-indigo-50 hover:text-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}

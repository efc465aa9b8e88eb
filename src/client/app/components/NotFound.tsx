import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { tabTitle } from '@/lib/texts.js';
import { paths } from '@/lib/paths.js';

export function NotFound() {
  return (
    <div className="py-16 text-center">
      <p className="text-base font-semibold text-indigo-700">404</p>
      <title>{tabTitle('Page not found')}</title>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-gray-900">Page not found</h1>
      <p className="mt-4 text-gray-600">The page you are looking for does not exist.</p>
      <Link to={paths.products.list.getHref()} className={buttonClasses('primary', 'mt-8')}>
        Go to Products
      </Link>
    </div>
  );
}

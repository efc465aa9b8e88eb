import { useState } from 'react';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Link } from 'react-router';
import type { ProductListItem } from '@shared/schemas/products.js';
import { Button } from '@/components/ui/Button.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { TextField } from '@/components/ui/Field.js';
import { SearchForm } from '@/components/ui/SearchForm.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { paths } from '@/lib/paths.js';
import { searchProducts } from '@/lib/products/search-products.js';
import { saveBarcode } from '../api/save-barcode.js';

/** A product to give the code to: found by a search, saved with a tap. */
function AddToProduct({ code }: { code: string }) {
  const catalogue = useCatalogueRef();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<ProductListItem[]>();
  const [saved, setSaved] = useState<string>();
  const [error, setError] = useState<string>();

  const attempt = async (task: () => Promise<void>) => {
    setError(undefined);
    try {
      await task();
    } catch (caught) {
      setError(getErrorMessage(caught));
    }
  };

  if (saved) return <p className="text-base text-gray-900">The code is saved on {saved}.</p>;
  return (
    <div className="space-y-3">
      <SearchForm
        label="Products to add the code to"
        onSearch={() =>
          void attempt(async () => setResults(await searchProducts(catalogue, q.trim())))
        }
      >
        <TextField
          label="Find the product"
          className="min-w-0 flex-1"
          value={q}
          onChange={(event) => setQ(event.target.value)}
          autoFocus
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </SearchForm>
      {results && results.length === 0 && (
        <p className="text-sm text-gray-600">No products found.</p>
      )}
      {results && results.length > 0 && (
        <ul className="divide-y divide-gray-200 rounded-lg bg-white ring-1 ring-gray-200">
          {results.map((product) => (
            <li key={product.id}>
              <button
                type="button"
                className="w-full px-4 py-3 text-left text-base text-gray-900 hover:bg-gray-50"
                onClick={() =>
                  void attempt(async () => {
                    await saveBarcode(catalogue, product.id, code);
                    setSaved(product.name);
                  })
                }
              >
                {product.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** A code no product has: make a product of it, or give it to one that has none yet. */
export function UnknownCode({ code }: { code: string }) {
  const catalogue = useCatalogueRef();
  const [adding, setAdding] = useState(false);
  return (
    <div className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-gray-200">
      <p className="text-lg font-semibold text-gray-900">No product has this code</p>
      <p className="font-mono text-base break-all text-gray-900">{code}</p>
      <div className="flex flex-wrap gap-3">
        <Link
          to={`${paths.products.create.getHref(catalogue)}?${new URLSearchParams({ barcode: code }).toString()}`}
          className={buttonClasses('primary')}
        >
          Create product
        </Link>
        {!adding && (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            Add to a product
          </Button>
        )}
      </div>
      {adding && <AddToProduct key={code} code={code} />}
    </div>
  );
}

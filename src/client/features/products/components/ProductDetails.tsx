import { useState, type ReactNode } from 'react';
import { preload } from 'react-dom';
import { useCatalogueCan } from '@/lib/catalogues/current-catalogue.js';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { Link, useNavigate, useParams } from 'react-router';
import { IMAGE_THUMBNAIL_EDGE, MIN_FORM_STOCK } from '@shared/constants.js';
import type { Product } from '@shared/schemas/products.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { Card } from '@/components/ui/Card.js';
import { formatCount, formatPrice } from '@/lib/format.js';
import { paths } from '@/lib/paths.js';
import { useMovements } from '../api/get-movements.js';
import { useProduct } from '../api/get-product.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { isProductMissing, ProductLoadError, ProductMissing } from './common/ProductLoadError.js';
import { CopyableId } from './CopyableId.js';
import { DeleteProductButton } from './DeleteProductButton.js';
import { copyStateOf } from './product-form-values.js';
import { STOCK_STATES, StockUnits, useStockState } from './common/StockBadges.js';
import { StockHistory } from './StockHistory.js';
import { PendingStockNote, useShownStock } from './common/PendingStock.js';
import { PrintLabelsButton } from './common/PrintLabelsButton.js';
import { ProductDetailsSkeleton } from './ProductDetailsSkeleton.js';
import { StockStepper } from './common/StockStepper.js';
import { tabTitle } from '@/lib/texts.js';
import { useDrawn } from '@/lib/use-drawn.js';
import { useOnline } from '@/lib/online.js';
import { LocationSelect } from '@/components/locations/LocationSelect.js';
import { MoveStockForm } from '@/components/locations/MoveStockForm.js';
import { useLocations } from '@/lib/locations/locations-query.js';
import { useAllPendingChanges } from '@/lib/stock-change/index.js';
import { placesWithPending, type Places } from '@/lib/stock-change/moves/places.js';

/**
 * The product page: read-only but for its stock, which it adjusts, and the stock's history. The
 * first paint waits for the product and its history together, so that nothing moves after it.
 * `after` goes below all of it (the route adds the product's activity, loaded once drawn).
 */
export function ProductDetails({ after }: { after?: ReactNode } = {}) {
  const { productId = '' } = useParams();
  const product = useProduct(productId);
  const movements = useMovements(productId);
  const online = useOnline();
  // The product this page has drawn. Its history read again afterwards (a retry while the server
  // is away puts it back to pending every few seconds, a refresh after an error) never takes it
  // off the screen for the skeleton; offline, the history is not waited for: it cannot come.
  const [shown, setShown] = useState<string>();
  const awaitHistory = shown !== productId && online && movements.isPending && !product.isError;

  // First drawn as a transition, in slices.
  const drawn = useDrawn(!(product.isPending || awaitHistory));
  if (!drawn || product.isPending) return <ProductDetailsSkeleton />;
  if (shown !== productId) setShown(productId);
  if (product.isError && isProductMissing(product)) {
    return (
      <ProductMissing>
        <BackToProductsLink />
      </ProductMissing>
    );
  }
  if (product.isError) {
    return (
      <div className="space-y-4 text-center">
        <h1 className="sr-only">Product details</h1>
        <ProductLoadError query={product} />
        <BackToProductsLink />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <ProductSheet product={product.data} />
      <StockHistory productId={productId} query={movements} />
      {after}
    </div>
  );
}

/**
 * The files of a product's picture with their widths, for srcset: the thumbnail (the image
 * bounded to IMAGE_THUMBNAIL_EDGE on its long side, as the server makes it) and the image. Without
 * a recorded size (no image, or one stored before sizes were), the image alone.
 */
function pictureSources(product: Product) {
  const { imageWidth: width, imageHeight: height } = product;
  if (width === null || height === null) return {};
  const thumbnailWidth = Math.round(
    width * Math.min(1, IMAGE_THUMBNAIL_EDGE / Math.max(width, height)),
  );
  const sources = [`${product.image} ${width}w`];
  if (thumbnailWidth < width) sources.unshift(`${product.thumbnail} ${thumbnailWidth}w`);
  return { srcSet: sources.join(', '), width, height };
}

/** How wide the picture is shown: half the card from 768 px (the card is at most 1024 px). */
const PICTURE_SIZES = '(min-width: 768px) min(50vw, 512px), 100vw';

/**
 * Asks for the product's picture, in the file its page will show, as soon as the product is
 * known: the picture is the page's largest paint, and the page itself may still wait (for its
 * code, for the user) before it draws the <img>.
 */
export function preloadPicture(product: Product) {
  const { srcSet } = pictureSources(product);
  preload(product.image, {
    as: 'image',
    imageSrcSet: srcSet,
    imageSizes: srcSet && PICTURE_SIZES,
    fetchPriority: 'high',
  });
}

/**
 * The product's picture: asked for before anything else on the page, in the file the screen
 * needs; shown whole in its square (letterboxed, never cropped), and never larger than its own
 * pixels, so a small picture stays sharp instead of a blur. That bound is a maximum size on the
 * element: with srcset widths the browser takes the picture's own size to be the `sizes` slot,
 * whatever the file's, so object-fit alone cannot know it.
 */
function ProductPicture({ product }: { product: Product }) {
  const sources = pictureSources(product);
  const bound = sources.width
    ? { maxWidth: `${sources.width}px`, maxHeight: `${sources.height}px` }
    : undefined;
  return (
    <img
      src={product.image}
      {...sources}
      sizes={PICTURE_SIZES}
      alt={product.name}
      fetchPriority="high"
      loading="eager"
      style={bound}
      className="size-full object-contain"
    />
  );
}

function ProductSheet({ product }: { product: Product }) {
  const navigate = useNavigate();
  const catalogue = useCatalogueRef();
  const mayEdit = useCatalogueCan()('editProducts');
  return (
    <Card className="overflow-hidden">
      <div className="grid md:grid-cols-2">
        {/* A square on a phone; beside the text from 768 px, as tall as it. */}
        <div className="flex aspect-square items-center justify-center bg-gray-100 md:aspect-auto">
          <ProductPicture product={product} />
        </div>
        <div className="flex min-w-0 flex-col gap-5 p-6 sm:p-8">
          <title>{tabTitle(product.name)}</title>
          {/* A long name wraps, even inside a word, rather than widen the page. */}
          <h1 className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere text-gray-900 sm:text-3xl">
            {product.name}
          </h1>
          <p className="text-3xl font-semibold text-gray-900">{formatPrice(product.price)}</p>
          <StockBlock product={product} />
          <div>
            <h2 className="text-sm font-semibold text-gray-900">Description</h2>
            <p className="mt-2 text-base whitespace-pre-line wrap-anywhere text-gray-700">
              {product.description}
            </p>
          </div>
          <dl className="divide-y divide-gray-200 rounded-xl text-sm ring-1 ring-gray-200">
            <Fact term="Price">
              <span className="font-semibold text-gray-900">{formatPrice(product.price)}</span>
            </Fact>
            <Fact term="SKU">
              <span className="font-mono break-all text-gray-900">{product.sku ?? 'None'}</span>
            </Fact>
            <Fact term="Barcode">
              <span className="font-mono break-all text-gray-900">{product.barcode ?? 'None'}</span>
            </Fact>
            <Fact term="Product ID">
              <CopyableId id={product.id} />
            </Fact>
          </dl>
          <div className="mt-auto flex flex-wrap gap-3 pt-2">
            {mayEdit && (
              <>
                <Link
                  to={paths.products.edit.getHref(product.id, catalogue)}
                  className={buttonClasses('primary')}
                >
                  Edit Product
                </Link>
                <Link
                  to={paths.products.create.getHref(catalogue)}
                  state={copyStateOf(product, MIN_FORM_STOCK)}
                  className={buttonClasses('secondary')}
                >
                  Duplicate
                </Link>
              </>
            )}
            <PrintLabelsButton ids={[product.id]} />
            {mayEdit && (
              <DeleteProductButton
                product={product}
                className={buttonClasses('danger')}
                onDeleted={() => void navigate(paths.products.list.getHref(catalogue))}
              />
            )}
            <BackToProductsLink />
          </div>
        </div>
      </div>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 px-4 py-3">
      <dt className="shrink-0 text-gray-600">{term}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

/**
 * The stock as one block in its state's colour: 'In Stock: 40' as its heading, the availability
 * and the units under it, where the stock is, the stepper that changes it at a chosen location
 * and the form that moves it between locations.
 */
function StockBlock({ product: saved }: { product: Product }) {
  const { product, pending } = useShownStock(saved);
  const catalogue = useCatalogueRef();
  const mayAdjust = useCatalogueCan()('adjustStock');
  const stateName = useStockState(product);
  const state = STOCK_STATES[stateName];
  const tree = useLocations(catalogue).data ?? [];
  const defaultId = tree.find((location) => location.isDefault)?.id;
  const places = placesWithPending(
    saved.locations ?? [],
    saved.id,
    useAllPendingChanges(),
    defaultId,
    (id) => tree.find((location) => location.id === id)?.path ?? '',
  );
  const [chosen, setChosen] = useState<string>();
  const atId = chosen ?? defaultId;
  const at = tree.find((location) => location.id === atId);
  // One place only (the default): the stepper changes the total, as it always has.
  const several = tree.length > 1;
  const heldAt = (id: string) => places.find((place) => place.locationId === id)?.quantity ?? 0;
  return (
    <section
      aria-labelledby="stock-heading"
      data-stock-block=""
      className={`rounded-xl p-4 ring-1 ring-inset ${state.pill}`}
    >
      <h2
        id="stock-heading"
        className={`flex items-center gap-2 text-base font-semibold ${state.text}`}
      >
        <span aria-hidden="true" className={`size-2.5 rounded-full ${state.dot}`} />
        In Stock: {formatCount(product.stock)}
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-gray-700">Availability</dt>
        <dd className={`font-semibold whitespace-nowrap ${state.text}`}>
          {/* The product page's own wording: 'In Stock', capitalised. */}
          {stateName === 'out' ? state.label : 'In Stock'}
          {state.note && <span> · {state.note}</span>}
        </dd>
        <dt className="text-gray-700">Stock</dt>
        <dd>
          <StockUnits stock={product.stock} state={stateName} className="font-semibold" />
        </dd>
      </dl>
      <PendingStockNote label={pending} />
      <StockPlaces places={places} />
      {mayAdjust && (
        <>
          <h3 className="mt-4 text-sm font-semibold text-gray-900">Adjust stock</h3>
          {several && at && (
            <LocationSelect
              label="At"
              className="mt-2"
              options={tree.map((location) => ({ ...location, held: heldAt(location.id) }))}
              value={at.id}
              onChange={setChosen}
            />
          )}
          <div className="mt-2">
            <StockStepper
              product={product}
              large
              location={
                several && at ? { id: at.id, path: at.path, held: heldAt(at.id) } : undefined
              }
            />
          </div>
          {several && places.length > 0 && (
            <details className="mt-4">
              <summary className="cursor-pointer text-sm font-semibold text-gray-900">
                Move stock
              </summary>
              <div className="mt-2">
                <MoveStockForm
                  key={places.map((place) => `${place.locationId}:${place.quantity}`).join()}
                  catalogue={catalogue}
                  items={[{ id: saved.id, name: saved.name, places }]}
                  locations={tree}
                  source="form"
                />
              </div>
            </details>
          )}
        </>
      )}
    </section>
  );
}

/** Where the stock is: each location holding some, by path, with its quantity and its page. */
function StockPlaces({ places }: { places: Places }) {
  const catalogue = useCatalogueRef();
  if (places.length === 0) return null;
  return (
    <>
      <h3 className="mt-4 text-sm font-semibold text-gray-900">Where it is</h3>
      <ul aria-label="Where it is" className="mt-1 space-y-1 text-sm">
        {places.map((place) => (
          <li key={place.locationId} className="flex gap-4">
            <Link
              className="text-blue-700 underline"
              to={paths.locations.location.getHref(place.locationId, catalogue)}
            >
              {place.path}
            </Link>
            <span className="ml-auto font-semibold">{formatCount(place.quantity)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

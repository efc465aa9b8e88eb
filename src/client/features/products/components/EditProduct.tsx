import { Link, useNavigate, useParams } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import {
  EDIT_FORM_MIN_STOCK,
  productEditFormSchema,
  type ProductFormValues,
} from '@shared/schemas/product-forms.js';
import { type Product } from '@shared/schemas/products.js';
import { buttonClasses } from '@/components/ui/button-styles.js';
import { Card } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { notifySuccess } from '@/lib/notify.js';
import { isFromList } from '@/lib/query/product-cache.js';
import { paths } from '@/lib/paths.js';
import { useProduct } from '../api/get-product.js';
import { useUpdateProduct } from '../api/update-product.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { NeedsRight } from './NeedsRight.js';
import { PageHeader } from './PageHeader.js';
import { isProductMissing, ProductLoadError, ProductMissing } from './common/ProductLoadError.js';
import { ProductForm } from './ProductForm.js';
import { formValuesOf } from './product-form-values.js';

export function EditProduct() {
  const catalogue = useCatalogueRef();
  const { productId = '' } = useParams();
  const product = useProduct(productId);

  // No such product: nothing to edit, and no details to go back to.
  if (product.isError && isProductMissing(product)) {
    return (
      <ProductMissing>
        <BackToProductsLink />
      </ProductMissing>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <PageHeader
        title="Edit Product"
        back={
          <Link
            to={paths.products.details.getHref(productId, catalogue)}
            className={buttonClasses('secondary')}
          >
            <span aria-hidden="true">←</span> Back to Details
          </Link>
        }
      />
      <NeedsRight action="editProducts">
        {/* What the list showed of it is not enough to edit: saving it would clear the rest. */}
        {product.isError && (product.data === undefined || isFromList(product.data)) ? (
          <ProductLoadError query={product} />
        ) : product.isPending || isFromList(product.data) ? (
          <PageSpinner label="Loading the product..." />
        ) : (
          <EditProductForm product={product.data} />
        )}
      </NeedsRight>
    </div>
  );
}

/**
 * The form's values without the codes and the reorder point and quantity the user left as they
 * were: only changes are sent.
 */
function withChangedCodesOnly(values: ProductFormValues, product: Product): ProductFormValues {
  const changed = { ...values };
  if ((changed.sku ?? '').trim() === (product.sku ?? '')) delete changed.sku;
  if ((changed.barcode ?? '').trim() === (product.barcode ?? '')) delete changed.barcode;
  const point = product.reorderPoint == null ? '' : String(product.reorderPoint);
  if ((changed.reorderPoint ?? '').trim() === point) delete changed.reorderPoint;
  const quantity = product.reorderQuantity == null ? '' : String(product.reorderQuantity);
  if ((changed.reorderQuantity ?? '').trim() === quantity) delete changed.reorderQuantity;
  return changed;
}

function EditProductForm({ product }: { product: Product }) {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  const update = useUpdateProduct({
    mutationConfig: {
      onSuccess: async ({ message }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref(catalogue));
      },
    },
  });

  return (
    <Card className="px-6 py-8 sm:px-8">
      <ProductForm
        action="Editing products"
        schema={productEditFormSchema}
        minStock={EDIT_FORM_MIN_STOCK}
        defaultValues={formValuesOf(product)}
        currentImage={{ url: product.image, alt: product.name }}
        submitLabel="Save Changes"
        busyLabel="Saving..."
        onSubmit={(upload) =>
          update.mutateAsync({
            id: product.id,
            ...upload,
            values: withChangedCodesOnly(upload.values, product),
          })
        }
      />
    </Card>
  );
}

import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useCatalogueRef } from '@/lib/catalogue-ref.js';
import { MIN_FORM_STOCK } from '@shared/constants.js';
import { productFormSchema } from '@shared/schemas/product-forms.js';
import { Card } from '@/components/ui/Card.js';
import { notifySuccess } from '@/lib/notify.js';
import { paths } from '@/lib/paths.js';
import { useCreateProduct } from '../api/create-product.js';
import { BackToProductsLink } from './BackToProductsLink.js';
import { NeedsRight } from './NeedsRight.js';
import { PageHeader } from './PageHeader.js';
import { ProductForm } from './ProductForm.js';
import { copiedValues } from './product-form-values.js';

const empty = {
  name: '',
  price: '',
  stock: '',
  description: '',
  cost: '',
  tags: [],
  sku: '',
  barcode: '',
  reorderPoint: '',
  reorderQuantity: '',
};

export function CreateProduct() {
  const catalogue = useCatalogueRef();
  const navigate = useNavigate();
  // `?barcode=…` fills the barcode in: a code scanned that no product has yet.
  const [search] = useSearchParams();
  // 'Duplicate' on a product page: that product's values, but for its codes and picture.
  const copy = copiedValues(useLocation().state);
  const create = useCreateProduct({
    mutationConfig: {
      onSuccess: async ({ message }) => {
        notifySuccess(message);
        await navigate(paths.products.list.getHref(catalogue));
      },
    },
  });

  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <PageHeader title="Create New Product" back={<BackToProductsLink />} />
      <NeedsRight action="editProducts">
        <Card className="px-6 py-8 sm:px-8">
          <ProductForm
            action="Creating products"
            schema={productFormSchema}
            minStock={MIN_FORM_STOCK}
            defaultValues={copy ?? { ...empty, barcode: search.get('barcode') ?? '' }}
            submitLabel="Create Product"
            busyLabel="Creating..."
            onSubmit={create.mutateAsync}
          />
        </Card>
      </NeedsRight>
    </div>
  );
}

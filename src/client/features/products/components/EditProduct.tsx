import { useNavigate, useParams } from 'react-router';
import {
  EDIT_FORM_MIN_STOCK,
  productEditFormSchema,
  type Product,
} from '@shared/schemas/products.js';
import { ErrorMessage } from '@/components/ui/Alert.js';
import { Card } from '@/components/ui/Card.js';
import { PageSpinner } from '@/components/ui/Spinner.js';
import { getErrorMessage } from '@/lib/api-error.js';
import { notifySuccess } from '@/lib/notify.js';
import type { ProductUpload } from '../api/product-multipart.js';
import { useProduct } from '../api/get-product.js';
import { useUpdateProduct } from '../api/update-product.js';
import { PageHeader } from './PageHeader.js';
import { ProductForm } from './ProductForm.js';

export function EditProduct() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);

  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <PageHeader
        title="Edit Product"
        back={{ to: `/details/product/${productId}`, label: 'Back to Details' }}
      />
      {product.isPending ? (
        <PageSpinner label="Loading the product..." />
      ) : product.isError ? (
        <ErrorMessage>{getErrorMessage(product.error)}</ErrorMessage>
      ) : (
        <EditProductForm product={product.data} />
      )}
    </div>
  );
}

function EditProductForm({ product }: { product: Product }) {
  const navigate = useNavigate();
  const update = useUpdateProduct();

  const onSubmit = async (upload: ProductUpload) => {
    const { message } = await update.mutateAsync({ id: product.id, ...upload });
    notifySuccess(message);
    await navigate('/');
  };

  return (
    <Card className="px-6 py-8 sm:px-8">
      <ProductForm
        schema={productEditFormSchema}
        minStock={EDIT_FORM_MIN_STOCK}
        defaultValues={{
          name: product.name,
          price: String(product.price),
          stock: String(product.stock),
          description: product.description,
        }}
        currentImage={{ url: product.image, alt: product.name }}
        submitLabel="Save Changes"
        busyLabel="Saving..."
        onSubmit={onSubmit}
      />
    </Card>
  );
}

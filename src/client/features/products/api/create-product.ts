import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productMutationResponseSchema } from '@shared/schemas/products.js';
import { apiRequest } from '@/lib/api-client.js';
import { queryKeys } from '@/lib/query-client.js';
import { progressHandler, toProductFormData, type ProductUpload } from './product-multipart.js';

/** POST /products (multipart) → {message, product}. */
const createProduct = (upload: ProductUpload) =>
  apiRequest(productMutationResponseSchema, {
    method: 'POST',
    url: '/products',
    data: toProductFormData(upload),
    onUploadProgress: progressHandler(upload.onProgress),
  });

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.products }),
  });
}

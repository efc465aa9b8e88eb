import { CatalogueLayout } from '@/features/catalogues/components/CatalogueLayout.js';

export default CatalogueLayout;

import { NewCodeForm } from '@/features/auth/components/NewCodeForm.js';

export default NewCodeForm;

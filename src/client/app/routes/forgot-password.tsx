import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm.js';

export default ForgotPasswordForm;

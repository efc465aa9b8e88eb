import { ResetPassword } from '@/features/auth/components/ResetPassword.js';

export default ResetPassword;

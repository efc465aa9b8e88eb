import { ConfirmAccount } from '@/features/auth/components/ConfirmAccount.js';

export default ConfirmAccount;

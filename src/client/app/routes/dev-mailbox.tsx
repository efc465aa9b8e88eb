import { Mailbox } from '@/features/mailbox/components/Mailbox.js';

export default Mailbox;

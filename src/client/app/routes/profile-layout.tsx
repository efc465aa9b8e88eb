import { ProfileLayout } from '../../features/profile/components/ProfileLayout.js';

export default ProfileLayout;

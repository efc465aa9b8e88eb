import { ProfileLayout } from '../layouts/ProfileLayout.js';

export default ProfileLayout;

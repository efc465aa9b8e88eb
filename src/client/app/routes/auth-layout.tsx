import { AuthLayout } from '../layouts/AuthLayout.js';

export default AuthLayout;

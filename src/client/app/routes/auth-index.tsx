import { Navigate } from 'react-router';
import { paths } from '@/lib/paths.js';

/** /auth itself has no screen: the login screen is where an account starts. */
export default function AuthIndex() {
  return <Navigate to={paths.auth.login.getHref()} replace />;
}

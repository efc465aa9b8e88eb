import { useNavigate, type NavigateOptions, type To } from 'react-router';
import { notifySuccess } from './notify.js';

/**
 * What a form does once the server accepted it: the server's message as a success toast,
 * then the next screen.
 */
export function useNotifyAndNavigate() {
  const navigate = useNavigate();
  return async (message: string, to: To, options?: NavigateOptions) => {
    notifySuccess(message);
    await navigate(to, options);
  };
}

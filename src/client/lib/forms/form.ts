import { useEffect, useState, type BaseSyntheticEvent } from 'react';
import { useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import type { z } from 'zod';
import { loadApiClient } from '../api-client.js';
import { getRateLimitWait } from '../api-error.js';
import { cachedImport, keepOnSuccess, preload } from '../lazy-import.js';
import { notifyError, preloadToasts } from '../notify.js';

/**
 * The longest rate-limit wait the submit button counts down. A longer one (a daily budget) is the
 * server's message to explain: a button counting thousands of seconds would not help.
 */
const BUTTON_WAIT_MAX_SECONDS = 120;

type FormSchema<Input extends FieldValues, Output extends FieldValues> = z.ZodType<Output, Input>;

/** A shared zod schema, or a loader of one (`() => import('@shared/schemas/auth.js')…`). */
export type FormSchemaSource<Input extends FieldValues, Output extends FieldValues> =
  FormSchema<Input, Output> | (() => Promise<FormSchema<Input, Output>>);

/**
 * A resolver that loads zod, the schema and the zod resolver on first use: a screen renders its
 * form before any of them arrive, and they are usually there by the time the user submits.
 */
function lazyZodResolver<Input extends FieldValues, Output extends FieldValues>(
  source: FormSchemaSource<Input, Output>,
) {
  const loadZodResolver = cachedImport(() => import('@hookform/resolvers/zod'));
  // Each chunk is retried once (lib/lazy-import.ts); a failure is not kept: the next submit retries.
  const load = keepOnSuccess(() =>
    Promise.all([loadZodResolver(), typeof source === 'function' ? source() : source]).then(
      ([{ zodResolver }, schema]) => zodResolver<Input, unknown, Output>(schema),
    ),
  );
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) =>
    (await load())(values, context, options);
  return { resolver, load };
}

/**
 * react-hook-form driven by a shared zod schema, the way every form of the app works: validate on
 * submit, then re-validate on every change. `preload` (give it to the form's
 * onFocus) fetches the validation code and the HTTP client as soon as the user starts on the form;
 * `submit` wraps the action with the error toast. After a rate limit (429) the toast is the
 * server's message and `retryAt` says until when (Retry-After): FormSubmitButton counts it down.
 *
 * `preloadWhenShown` fetches them as soon as the form is drawn instead: for the signed-in screens'
 * forms, whose code is not held to a first visit's budget. A first submit then shows its messages
 * at once, rather than when the code arrives (on a slow phone, a jump well after the tap).
 */
export function useZodForm<Input extends FieldValues, Output extends FieldValues>(
  source: FormSchemaSource<Input, Output>,
  options?: Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'mode' | 'reValidateMode'>,
  { preloadWhenShown = false } = {},
) {
  const [{ resolver, load }] = useState(() => lazyZodResolver(source));
  const form = useForm<Input, unknown, Output>({
    ...options,
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [retryAt, setRetryAt] = useState(0);
  const [preloadForm] = useState(() => () => {
    preload(load);
    preload(loadApiClient);
    preloadToasts();
  });
  useEffect(() => {
    if (preloadWhenShown) preloadForm();
  }, [preloadWhenShown, preloadForm]);
  /**
   * The submit handler: runs `action` with the valid values; a failure becomes an error toast,
   * then `onError` runs. Submit stays disabled while `action` runs. When the
   * validation code itself cannot be loaded, that is reported the same way: a submit always ends.
   */
  const submit = (
    action: (values: Output) => Promise<unknown>,
    onError?: (error: unknown, values: Output | Input) => unknown,
  ) => {
    const fail = async (error: unknown, values: Output | Input) => {
      notifyError(error);
      const wait = getRateLimitWait(error);
      if (wait !== undefined && wait <= BUTTON_WAIT_MAX_SECONDS)
        setRetryAt(Date.now() + wait * 1000);
      await onError?.(error, values);
    };
    const handle = form.handleSubmit(async (values) => {
      try {
        await action(values);
      } catch (error) {
        await fail(error, values);
      }
    });
    return async (event?: BaseSyntheticEvent) => {
      try {
        await handle(event);
      } catch (error) {
        await fail(error, form.getValues());
      }
    };
  };
  return { ...form, preload: preloadForm, submit, retryAt };
}

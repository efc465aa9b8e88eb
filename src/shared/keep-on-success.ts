/**
 * A loader whose result is kept once it succeeded, shared by every later call. A failure is not
 * kept: the next call tries again. The client loads its chunks this way; the server the libraries
 * that only some requests use (images, S3, SMTP, password hashing), so start-up pays for none.
 */
export function keepOnSuccess<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives; '/api' (same origin) when unset. */
  readonly VITE_API_URL?: string;
  /** The footer's 'Created by' credit. */
  readonly VITE_AUTHOR_NAME?: string;
  readonly VITE_AUTHOR_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

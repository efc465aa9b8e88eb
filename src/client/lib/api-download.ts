import type { AxiosRequestConfig } from 'axios';
import { loadApiClient } from './api-client.js';
import { preloadToasts } from './notify.js';

/** A file the API sends, and the name to save it under. */
export interface Download {
  blob: Blob;
  filename: string;
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename=`). */
function filenameOf(disposition: unknown): string | undefined {
  if (typeof disposition !== 'string') return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // Badly encoded: the plain name, if any, follows.
    }
  }
  return /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i
    .exec(disposition)
    ?.slice(1)
    .find(Boolean)
    ?.trim();
}

/** An error answer of a binary request arrives as bytes: read it as the JSON it is. */
function withReadableBody(error: unknown): unknown {
  const response = (error as { response?: { data?: unknown } } | null)?.response;
  if (response?.data instanceof ArrayBuffer) {
    try {
      response.data = JSON.parse(new TextDecoder().decode(response.data)) as unknown;
    } catch {
      response.data = undefined;
    }
  }
  return error;
}

/**
 * Fetches a file through the HTTP client (so with the bearer token, which a plain link cannot
 * send), with the name the server gives it in Content-Disposition, else `fallbackName`. A failure
 * carries the server's JSON error, as every other request's does.
 */
export async function apiDownload(
  config: AxiosRequestConfig,
  fallbackName: string,
): Promise<Download> {
  preloadToasts();
  const api = await loadApiClient();
  try {
    // Bytes rather than a Blob: the same in every browser and in the component tests' jsdom.
    const response = await api.request<ArrayBuffer>({ ...config, responseType: 'arraybuffer' });
    const type = response.headers['content-type'];
    return {
      blob: new Blob([response.data], typeof type === 'string' ? { type } : {}),
      filename: filenameOf(response.headers['content-disposition']) ?? fallbackName,
    };
  } catch (error) {
    throw withReadableBody(error);
  }
}

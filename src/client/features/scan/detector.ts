import type { BarcodeDetector as Detector, BarcodeFormat } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** What shelves and our own labels carry: retail codes, warehouse codes, and QR / Data Matrix. */
const FORMATS: BarcodeFormat[] = [
  'ean_13',
  'ean_8',
  'upc_a',
  'upc_e',
  'code_128',
  'code_39',
  'qr_code',
  'data_matrix',
];

type DetectorClass = typeof Detector;

/**
 * The browser's own BarcodeDetector where it reads every format we need (Android, macOS), else
 * ZXing compiled to WebAssembly. The .wasm is one of our build's assets, fetched from our origin:
 * the package would otherwise fetch it from a public CDN, which the Content-Security-Policy
 * forbids and an offline shop cannot reach.
 */
export async function createDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (native) {
    const supported: readonly BarcodeFormat[] = await native.getSupportedFormats().catch(() => []);
    if (FORMATS.every((format) => supported.includes(format)))
      return new native({ formats: FORMATS });
  }
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  prepareZXingModule({
    overrides: {
      locateFile: (file: string, prefix: string) =>
        file.endsWith('.wasm') ? new URL(wasmUrl, window.location.href).href : prefix + file,
    },
  });
  return new BarcodeDetector({ formats: FORMATS });
}

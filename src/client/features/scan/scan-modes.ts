export type ScanMode = 'receive' | 'pick' | 'count' | 'move' | 'lookup';

export const SCAN_MODES: readonly { value: ScanMode; label: string }[] = [
  { value: 'receive', label: 'Receive' },
  { value: 'pick', label: 'Pick' },
  { value: 'count', label: 'Count' },
  { value: 'move', label: 'Move' },
  { value: 'lookup', label: 'Look up' },
];

const STORAGE_KEY = 'scanMode';

const isMode = (value: unknown): value is ScanMode =>
  SCAN_MODES.some((mode) => mode.value === value);

/** The mode last chosen on this device (a shop keeps a phone for receiving, another for picking). */
export function rememberedMode(): ScanMode {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isMode(stored) ? stored : 'receive';
  } catch {
    return 'receive';
  }
}

export function rememberMode(mode: ScanMode) {
  try {
    localStorage.setItem(STORAGE_KEY, mode);
  } catch {
    // Storage refused (private mode): the choice holds until the page closes.
  }
}

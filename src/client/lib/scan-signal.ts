let audio: AudioContext | undefined;

/**
 * A short beep and buzz for a recognised code: the user looks at the shelf, not the screen.
 * Either may be unavailable (no vibration on iOS, audio blocked before a tap): then silence.
 */
export function signalScan() {
  navigator.vibrate?.(60);
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 1_200;
    volume.gain.value = 0.08;
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.08);
  } catch {
    // No sound: the screen still shows what the scan did.
  }
}

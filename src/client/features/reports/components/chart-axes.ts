/**
 * The chart's axes as a reader needs them whole: short labels ('$55K', '1.2K'), and each axis as
 * wide as its widest label, where uPlot's fixed 50 px clipped '$55,000' to '5,000'.
 */
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});
const units = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const dollarLabels = (_chart: unknown, ticks: number[]) =>
  ticks.map((tick) => dollars.format(tick));
export const unitLabels = (_chart: unknown, ticks: number[]) =>
  ticks.map((tick) => units.format(tick));

/** uPlot's axis font is 12 px: at most 7 px a character, plus the tick and the gap. */
const CHARACTER_PX = 7;
const TICK_AND_GAP_PX = 12;

/** How wide an axis must be for its labels (uPlot asks again as they change). */
export const axisSize = (_chart: unknown, labels: string[] | null) =>
  Math.max(...(labels ?? ['']).map((label) => label.length)) * CHARACTER_PX + TICK_AND_GAP_PX;

import type { LabelLayout } from '../../../../shared/labels.js';

/** PDF points: 72 to the inch. */
const inch = (value: number) => value * 72;
const mm = (value: number) => (value * 72) / 25.4;

/**
 * A page of labels in PDF points: its size, the grid of labels on it, where the first label's
 * top-left corner is, and the pitch from one label to the next (label plus gap).
 */
export interface PageLayout {
  page: { width: number; height: number };
  columns: number;
  rows: number;
  label: { width: number; height: number };
  origin: { x: number; y: number };
  pitch: { x: number; y: number };
}

/** A layout with one label filling each page: a roll or a label printer. */
const onePerPage = (width: number, height: number): PageLayout => ({
  page: { width, height },
  columns: 1,
  rows: 1,
  label: { width, height },
  origin: { x: 0, y: 0 },
  pitch: { x: width, y: height },
});

/**
 * The sheets as their makers specify them. Avery L7160: A4, 3 × 7 labels of 63.5 × 38.1 mm,
 * 15.15 mm top margin, 7.25 mm side margin, 66.0 mm across (2.5 mm gaps), no gap down. Avery
 * 5160: US Letter, 3 × 10 labels of 2⅝ × 1 in, ½ in top margin, 3/16 in side margin, 2¾ in
 * across (⅛ in gaps), no gap down. Brother's 62 mm continuous roll is cut to 62 × 40 mm labels.
 */
export const LAYOUTS: Record<LabelLayout, PageLayout> = {
  'avery-l7160': {
    page: { width: mm(210), height: mm(297) },
    columns: 3,
    rows: 7,
    label: { width: mm(63.5), height: mm(38.1) },
    origin: { x: mm(7.25), y: mm(15.15) },
    pitch: { x: mm(66), y: mm(38.1) },
  },
  'avery-5160': {
    page: { width: inch(8.5), height: inch(11) },
    columns: 3,
    rows: 10,
    label: { width: inch(2.625), height: inch(1) },
    origin: { x: inch(0.1875), y: inch(0.5) },
    pitch: { x: inch(2.75), y: inch(1) },
  },
  'brother-62mm': onePerPage(mm(62), mm(40)),
  'label-2x1in': onePerPage(inch(2), inch(1)),
};

/** The box of the label in cell `index` of a page (row by row, from the top left). */
export function cellBox(layout: PageLayout, index: number) {
  const column = index % layout.columns;
  const row = Math.floor(index / layout.columns);
  return {
    x: layout.origin.x + column * layout.pitch.x,
    y: layout.origin.y + row * layout.pitch.y,
    width: layout.label.width,
    height: layout.label.height,
  };
}

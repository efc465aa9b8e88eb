/** Label printing: the sheet and roll layouts a user can choose, and how many labels a request makes. */

export const LABEL_LAYOUTS = ['avery-l7160', 'avery-5160', 'brother-62mm', 'label-2x1in'] as const;
export type LabelLayout = (typeof LABEL_LAYOUTS)[number];

/** Labels on one page of each layout: sheets of 3 × 7 and 3 × 10, or one label a page. */
export const LABELS_PER_PAGE: Record<LabelLayout, number> = {
  'avery-l7160': 21,
  'avery-5160': 30,
  'brother-62mm': 1,
  'label-2x1in': 1,
};

/** How each layout reads in a picker. */
export const LABEL_LAYOUT_NAMES: Record<LabelLayout, string> = {
  'avery-l7160': 'Avery L7160 (A4, 21 labels of 63.5 × 38.1 mm)',
  'avery-5160': 'Avery 5160 (US Letter, 30 labels of 2⅝ × 1 in)',
  'brother-62mm': 'Brother QL, 62 mm roll (one label a page)',
  'label-2x1in': '2 × 1 in label printer (Dymo, Zebra; one a page)',
};

/** The most labels one request makes, copies included. */
export const LABELS_MAX = 1000;

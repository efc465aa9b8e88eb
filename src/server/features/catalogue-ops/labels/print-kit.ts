/**
 * What other printed things (a count sheet) draw with, as the labels do: the fonts of every
 * script, text fitted to a box, and codes as vector bars or a QR code.
 */
export { drawSymbol, symbolFor } from './symbols.js';
export { drawText, LabelFonts } from './text.js';

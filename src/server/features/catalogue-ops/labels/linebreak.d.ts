/** The Unicode line breaking algorithm (UAX #14), as the `linebreak` package exports it. */
declare module 'linebreak' {
  export default class LineBreaker {
    constructor(text: string);
    /** The next break opportunity: text may start a new line at `position`. */
    nextBreak(): { position: number; required: boolean } | null;
  }
}

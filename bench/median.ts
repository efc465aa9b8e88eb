/** The middle value (the upper of the two middle ones for an even count): how each figure is read. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

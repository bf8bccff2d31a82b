/** Where a finding is: 1-based line and column, start inclusive, end exclusive. */
export interface Position {
  line: number;
  col: number;
}

export interface Span {
  start: Position;
  end: Position;
}

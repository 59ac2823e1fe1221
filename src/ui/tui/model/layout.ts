/**
 * Panel sizes from the terminal size. Everything drawn fits in `rows - 1`
 * lines: Ink redraws the whole screen (and flickers) once output reaches
 * the terminal's height.
 */

export interface Size {
  columns: number;
  rows: number;
}

export interface Layout extends Size {
  /** Under 80 columns the story list and the details stack instead of sitting side by side. */
  narrow: boolean;
  /** Lines for the view between the header and the footer. */
  bodyHeight: number;
  /** Outer sizes of the dashboard panels (borders included). */
  list: Size;
  details: Size;
  /** Lines the log and diff views show at once (their title line excluded). */
  pageSize: number;
}

export const NARROW_BELOW = 80;
/** Header (2), tabs (1), activity (1), footer (1). */
const CHROME_LINES = 5;

export function computeLayout(size: Size): Layout {
  const columns = Math.max(20, size.columns);
  const rows = Math.max(10, size.rows);
  const narrow = columns < NARROW_BELOW;
  const bodyHeight = Math.max(4, rows - 1 - CHROME_LINES);
  const pageSize = Math.max(1, bodyHeight - 1);
  // Narrow: the list above the details; wide: side by side.
  const listHeight = Math.max(3, Math.min(bodyHeight - 3, Math.floor(bodyHeight * 0.45)));
  const listWidth = Math.max(30, Math.min(60, Math.round(columns * 0.42)));
  return {
    columns,
    rows,
    narrow,
    bodyHeight,
    pageSize,
    list: narrow ? { columns, rows: listHeight } : { columns: listWidth, rows: bodyHeight },
    details: narrow
      ? { columns, rows: bodyHeight - listHeight }
      : { columns: columns - listWidth, rows: bodyHeight },
  };
}

/** Lines the lanes panel of a parallel run takes: a line per worker and one for the merge queue, a title, borders. */
export const lanesHeight = (workers: number): number => workers + 4;

/**
 * The dashboard's panels under a panel of `rows` lines on top (a parallel
 * run's lanes), which takes at most what leaves the stories a few lines.
 * Returns the layout of what is left, and the lines the top panel gets.
 */
export function belowTopPanel(layout: Layout, rows: number): { top: number; rest: Layout } {
  const top = Math.max(0, Math.min(rows, layout.bodyHeight - 6));
  const bodyHeight = layout.bodyHeight - top;
  const list = layout.narrow
    ? {
        columns: layout.list.columns,
        rows: Math.max(3, Math.min(bodyHeight - 3, Math.floor(bodyHeight * 0.45))),
      }
    : { columns: layout.list.columns, rows: bodyHeight };
  const details = {
    columns: layout.details.columns,
    rows: layout.narrow ? bodyHeight - list.rows : bodyHeight,
  };
  return { top, rest: { ...layout, bodyHeight, list, details } };
}

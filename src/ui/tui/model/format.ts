/** Short human figures for a terminal: `$0.42`, `3m 05s`. */
import { formatDuration } from '../../../core/duration.js';
import { formatUsd } from '../../../core/money.js';

export const money = formatUsd;

export const duration = formatDuration;

/** Like `duration`, with tenths under a minute: a story's time, where seconds matter. */
export const storyDuration = (ms: number): string =>
  ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : duration(ms);

/** Word-wraps to `width` columns; words longer than a line are cut. Blank lines are kept. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const para of text.replace(/\t/g, '  ').split(/\r?\n/)) {
    let line = '';
    for (const word of para.split(' ')) {
      let rest = word;
      while (rest.length > w) {
        if (line !== '') {
          out.push(line);
          line = '';
        }
        out.push(rest.slice(0, w));
        rest = rest.slice(w);
      }
      if (line === '') line = rest;
      else if (line.length + 1 + rest.length <= w) line = `${line} ${rest}`;
      else {
        out.push(line);
        line = rest;
      }
    }
    out.push(line);
  }
  return out;
}

/** Cuts to `width` columns with an ellipsis. */
export const clip = (text: string, width: number): string =>
  text.length <= width ? text : width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;

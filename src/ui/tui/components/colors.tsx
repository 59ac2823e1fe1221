/**
 * Whether the TUI may colour its text. `NO_COLOR` (https://no-color.org)
 * turns colours off, as the plain output never has them; bold, dim and
 * inverse stay, so what is focused or important still shows.
 */
import { createContext, useContext } from 'react';
import type { LineStyle } from '../model/log-lines.js';

export const ColorsContext = createContext(true);

/** Colours are on unless NO_COLOR is set to anything but the empty string. */
export const colorsAllowed = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.NO_COLOR === undefined || env.NO_COLOR === '';

type Color = string | undefined;

/** `color(c)`: the colour to draw with, or none when colours are off. */
export function useColor(): (color: Color) => Color {
  return useContext(ColorsContext) ? keep : drop;
}

const keep = (color: Color): Color => color;
const drop = (): Color => undefined;

export type TextStyle = { color?: string; dimColor?: boolean; bold?: boolean };

const STYLES: Readonly<Record<LineStyle, TextStyle>> = {
  text: {},
  dim: { dimColor: true },
  good: { color: 'green' },
  bad: { color: 'red' },
  warn: { color: 'yellow' },
  accent: { color: 'cyan' },
  heading: { color: 'magenta', bold: true },
};

/** A line style as Ink's text props; without colours a heading stays bold and `dim` dim. */
export function useStyleOf(): (style: LineStyle) => TextStyle {
  const colors = useContext(ColorsContext);
  return colors ? styleWithColor : styleWithoutColor;
}

const styleWithColor = (style: LineStyle): TextStyle => STYLES[style];
const styleWithoutColor = (style: LineStyle): TextStyle => {
  const { color: _color, ...rest } = STYLES[style];
  return rest;
};

import { parsePrdJson } from './parse-prd-json.js';
import type { TextFormat } from './task-source.js';
import { withPrdJsonStatus } from './write-prd-json.js';

export const prdJsonFormat: TextFormat = {
  format: 'prd-json',
  parse: parsePrdJson,
  withStatus: withPrdJsonStatus,
};

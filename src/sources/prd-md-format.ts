import { parsePrdMd } from './parse-prd-md.js';
import type { TextFormat } from './task-source.js';
import { withPrdMdStatus } from './write-prd-md.js';

export const prdMdFormat: TextFormat = {
  format: 'prd-md',
  parse: parsePrdMd,
  withStatus: withPrdMdStatus,
};

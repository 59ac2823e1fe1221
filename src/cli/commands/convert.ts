import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ExitCode, InvalidInputError, UsageError } from '../../core/errors.js';
import { prdToJson, prdToMarkdown } from '../../sources/convert.js';
import { readPrd } from '../../sources/load-task-source.js';
import { printData } from '../output.js';

export async function convertCommand(
  file: string,
  opts: { to: 'json' | 'md'; output?: string },
): Promise<number> {
  const result = await readPrd(resolve(file));
  if (!result.ok) throw new InvalidInputError(`${file} is not a valid task file`, result.issues);
  if (result.prd.format === 'spec-dir') throw new UsageError('convert works on a prd.md or prd.json file');
  const text = opts.to === 'json' ? prdToJson(result.prd) : prdToMarkdown(result.prd);
  if (opts.output === undefined) {
    printData(text);
    return ExitCode.Success;
  }
  if (resolve(opts.output) === resolve(file)) throw new UsageError('refusing to overwrite the input file');
  await writeFile(opts.output, text, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') throw new UsageError(`${opts.output} exists; not overwriting it`);
    throw error;
  });
  return ExitCode.Success;
}

#!/usr/bin/env node
// Stands in for an agent CLI's interactive mode in `ralph new` / `ralph edit` tests.
// It records how it was started (argv, whether it owns the terminal), asks one
// lettered question on the terminal and reads the answer, then writes the PRD
// path named in its prompt.
//   FAKE_AGENT_RECORD   file to write {argv, cwd, stdinIsTTY, stdoutIsTTY, answer, prdPath} to (JSON)
//   FAKE_AGENT_CONTENT  file whose text becomes the PRD; unset: write nothing
//   FAKE_AGENT_EXIT     exit code (default 0)
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const prdPath = /(\.ralph\/\S*?prd\.md)/.exec(argv.join('\n'))?.[1] ?? null;

process.stdout.write('1. Who is this feature for?\n   A. Every user\n   B. Admins only\n   C. Other\n');
const rl = createInterface({ input: process.stdin, output: process.stdout });
rl.question('Your answer: ', (answer) => {
  rl.close();
  const record = {
    argv,
    cwd: process.cwd(),
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    answer: answer.trim(),
    prdPath,
  };
  if (process.env.FAKE_AGENT_RECORD) writeFileSync(process.env.FAKE_AGENT_RECORD, JSON.stringify(record));
  if (process.env.FAKE_AGENT_CONTENT && prdPath) {
    writeFileSync(resolve(prdPath), readFileSync(process.env.FAKE_AGENT_CONTENT, 'utf8'));
    process.stdout.write(`Wrote ${prdPath}\n`);
  }
  process.exit(Number(process.env.FAKE_AGENT_EXIT ?? 0));
});

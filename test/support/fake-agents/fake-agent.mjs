#!/usr/bin/env node
// A stand-in agent CLI for runner tests: `node fake-agent.mjs <mode> [args...]`.
import { spawn } from 'node:child_process';

const [mode = 'ok', ...rest] = process.argv.slice(2);
const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const hang = () => setInterval(() => undefined, 60_000);

switch (mode) {
  case 'ok':
    line({ type: 'hello', pid: process.pid });
    line({ type: 'bye' });
    break;
  case 'args':
    line({ type: 'args', args: rest, marker: process.env.FAKE_MARKER ?? null });
    break;
  case 'stdin': {
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => line({ type: 'stdin', text: Buffer.concat(chunks).toString('utf8') }));
    break;
  }
  case 'hang':
    line({ type: 'started', pid: process.pid });
    hang();
    break;
  case 'chatty':
    // Never silent, never done: only the wall-clock limit stops it.
    setInterval(() => line({ type: 'tick' }), 20);
    break;
  case 'ignore-sigterm':
    process.on('SIGTERM', () => line({ type: 'sigterm-ignored' }));
    line({ type: 'started', pid: process.pid });
    hang();
    break;
  case 'garbage': {
    const hugeBytes = Number(rest[0] ?? 1024);
    process.stdout.write('this is not json\n');
    line({ type: 'after-garbage' });
    process.stdout.write(`${'x'.repeat(hugeBytes)}\n`);
    line({ type: 'after-huge' });
    process.stdout.write('{"type":"no-newline-at-end"}');
    break;
  }
  case 'crash':
    line({ type: 'started' });
    process.stderr.write('fatal: something broke\n');
    process.exit(3);
    break;
  case 'stderr-flood': {
    const chunk = `${'e'.repeat(1023)}\n`;
    for (let i = 0; i < Number(rest[0] ?? 256); i++) process.stderr.write(chunk);
    process.stderr.write('the last words\n');
    break;
  }
  case 'grandchild': {
    // The grandchild shares stdout and the process group; the agent then goes silent.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'inherit' });
    line({ type: 'grandchild', pid: child.pid });
    hang();
    break;
  }
  case 'orphan': {
    // Exits at once, leaving a grandchild that holds stdout open.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'inherit' });
    line({ type: 'grandchild', pid: child.pid });
    child.unref();
    process.exit(0);
    break;
  }
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(2);
}

import { describe, expect, it } from 'vitest';
import { SECCOMP_ARCHES, seccompBytes, seccompFilterFor, seccompProgram } from './seccomp-filter.js';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;

/** Runs the classic BPF program on `{nr, arch}` as the kernel would: the value it returns. */
function evaluate(bytes: Buffer, nr: number, arch: number): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  let a = 0;
  for (let pc = 0; pc * 8 < bytes.length; pc++) {
    const code = bytes.readUInt16LE(pc * 8);
    const [jt, jf, k] = [
      bytes.readUInt8(pc * 8 + 2),
      bytes.readUInt8(pc * 8 + 3),
      bytes.readUInt32LE(pc * 8 + 4),
    ];
    if (code === 0x20) a = data.readUInt32LE(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += a === k ? jt : jf;
    else if (code === 0x45) pc += (a & k) !== 0 ? jt : jf;
    else throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error('ran off the end');
}

const X86_64 = 0xc000003e;
const I386 = 0x40000003;
const AARCH64 = 0xc00000b7;
const ARM = 0x40000028;

describe('the seccomp filter', () => {
  const x64 = seccompBytes(seccompProgram(SECCOMP_ARCHES.x64));
  const arm64 = seccompBytes(seccompProgram(SECCOMP_ARCHES.arm64));

  it('refuses ptrace, process_vm_readv/writev and pidfd_getfd on x86-64 and i386, allows the rest', () => {
    for (const nr of [101, 310, 311, 438]) expect(evaluate(x64, nr, X86_64)).toBe(EPERM);
    for (const nr of [0, 1, 2, 57, 59, 61, 231]) expect(evaluate(x64, nr, X86_64)).toBe(ALLOW);
    for (const nr of [26, 347, 348, 438]) expect(evaluate(x64, nr, I386)).toBe(EPERM);
    // i386's 101 is ioperm and 310 is its own call, not ptrace: allowed.
    for (const nr of [3, 4, 101, 310]) expect(evaluate(x64, nr, I386)).toBe(ALLOW);
  });

  it('refuses every x32 call (bit 30) and every call from an architecture it does not know', () => {
    expect(evaluate(x64, 0x40000000 + 101, X86_64)).toBe(EPERM);
    expect(evaluate(x64, 0x40000000, X86_64)).toBe(EPERM);
    expect(evaluate(x64, 0, AARCH64)).toBe(EPERM);
    expect(evaluate(arm64, 0, X86_64)).toBe(EPERM);
  });

  it('refuses the same calls by their aarch64 and 32-bit ARM numbers', () => {
    for (const nr of [117, 270, 271, 438]) expect(evaluate(arm64, nr, AARCH64)).toBe(EPERM);
    for (const nr of [63, 64, 220, 221]) expect(evaluate(arm64, nr, AARCH64)).toBe(ALLOW);
    for (const nr of [26, 376, 377, 438]) expect(evaluate(arm64, nr, ARM)).toBe(EPERM);
    for (const nr of [3, 4, 117]) expect(evaluate(arm64, nr, ARM)).toBe(ALLOW);
  });

  it('is built for the arches Node runs bwrap on, and none other', () => {
    expect(seccompFilterFor('x64')).toEqual(x64);
    expect(seccompFilterFor('arm64')).toEqual(arm64);
    expect(seccompFilterFor('riscv64')).toBeNull();
  });
});

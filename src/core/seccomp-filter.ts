/**
 * The seccomp filter every bubblewrap sandbox loads (`bwrap --seccomp FD`):
 * a classic BPF program, assembled here, that refuses with EPERM the system
 * calls a program inside could use to reach into another process's memory
 * or files — `ptrace`, `process_vm_readv`/`process_vm_writev` and
 * `pidfd_getfd` — so what the agent runs cannot write into the agent itself
 * (a forged DONE on its stdout, say). Everything else is allowed: the box's
 * walls are its mounts and namespaces; this only closes what they leave open
 * between processes of the same user inside.
 *
 * The numbers of system calls differ between architectures, so the filter
 * checks the architecture first; on x86-64, the x32 ABI (the same
 * architecture with bit 30 set in the number) is refused whole, as is an
 * architecture the filter does not know.
 */

/** `linux/audit.h`'s AUDIT_ARCH_* values, as `seccomp_data.arch` carries them. */
interface ArchCalls {
  audit: number;
  /** ptrace, process_vm_readv, process_vm_writev, pidfd_getfd. */
  denied: readonly number[];
  /** Refuse every system call with this bit set in its number (x86-64's x32 ABI). */
  deniedBit?: number;
}

const PIDFD_GETFD = 438;

/** Native and compat architectures of the machines Node runs on with bubblewrap. */
export const SECCOMP_ARCHES: Readonly<Record<'x64' | 'arm64', readonly ArchCalls[]>> = {
  x64: [
    { audit: 0xc000003e, denied: [101, 310, 311, PIDFD_GETFD], deniedBit: 0x40000000 },
    // i386 programs on a 64-bit kernel.
    { audit: 0x40000003, denied: [26, 347, 348, PIDFD_GETFD] },
  ],
  arm64: [
    { audit: 0xc00000b7, denied: [117, 270, 271, PIDFD_GETFD] },
    // 32-bit ARM (EABI) programs on a 64-bit kernel.
    { audit: 0x40000028, denied: [26, 376, 377, PIDFD_GETFD] },
  ],
};

// linux/filter.h and linux/seccomp.h.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const RET_EPERM = 0x00050000 | EPERM;
/** `struct seccomp_data`: `int nr; __u32 arch; …`. */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });

/** One architecture's checks: load the number, jump to the refusal on a match, else allow. */
function archBlock(arch: ArchCalls): Instruction[] {
  const tests = [
    ...(arch.deniedBit === undefined ? [] : [{ code: JSET_K, k: arch.deniedBit }]),
    ...arch.denied.map((nr) => ({ code: JEQ_K, k: nr })),
  ];
  // Layout: load, tests…, allow, refuse. A test at i (after the load) jumps over the rest and the allow.
  const block = [op(LD_W_ABS, NR_OFFSET)];
  tests.forEach((t, i) => {
    block.push(op(t.code, t.k, tests.length - i));
  });
  block.push(op(RET_K, RET_ALLOW), op(RET_K, RET_EPERM));
  return block;
}

/** The filter's instructions for the arches of one machine. */
export function seccompProgram(arches: readonly ArchCalls[]): Instruction[] {
  const blocks = arches.map(archBlock);
  const head = [op(LD_W_ABS, ARCH_OFFSET)];
  // After the load: one test per arch, then the refusal of an unknown arch, then the blocks in order.
  let start = arches.length + 1;
  arches.forEach((arch, i) => {
    head.push(op(JEQ_K, arch.audit, start - (i + 1)));
    start += blocks[i]?.length ?? 0;
  });
  head.push(op(RET_K, RET_EPERM));
  const program = [...head, ...blocks.flat()];
  if (program.some((ins) => ins.jt > 255)) throw new Error('seccomp filter: a jump is out of range');
  return program;
}

/** `struct sock_filter[]` in the machine's byte order (little-endian on both arches we build for). */
export function seccompBytes(program: readonly Instruction[]): Buffer {
  const out = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(ins.jt, i * 8 + 2);
    out.writeUInt8(ins.jf, i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The compiled filter for Node's `process.arch`, or null where we have none (the box then runs without it). */
export function seccompFilterFor(arch: string): Buffer | null {
  const arches = arch === 'x64' || arch === 'arm64' ? SECCOMP_ARCHES[arch] : undefined;
  return arches ? seccompBytes(seccompProgram(arches)) : null;
}

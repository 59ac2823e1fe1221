/**
 * ralph's temporary files (an atomic write's copy before its rename) are
 * named `.<file>.ralph-tmp-<pid>-<n>` beside the file they replace. A run
 * killed mid-write leaves one behind; the name says whose it is, so no
 * commit of ralph's ever takes one in and the next run removes it.
 */
const TEMPORARY = /^\..+\.ralph-tmp-(\d+)-\d+$/;

export const temporaryName = (file: string, pid: number, n: number): string =>
  `.${file}.ralph-tmp-${pid}-${n}`;

const baseName = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

/** Whether `file` (a name or a `/`-separated path) is one of ralph's temporaries. */
export const isTemporaryFile = (file: string): boolean => TEMPORARY.test(baseName(file));

/** The pid of the process that wrote a temporary file, or undefined when `name` is not one. */
export function temporaryWriter(name: string): number | undefined {
  const pid = TEMPORARY.exec(baseName(name))?.[1];
  return pid === undefined ? undefined : Number(pid);
}

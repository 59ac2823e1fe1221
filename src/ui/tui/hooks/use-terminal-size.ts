import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import type { Size } from '../model/layout.js';

/** Without a terminal (a pipe, a test) Ink lays out 80 columns; 24 rows is the classic default. */
const read = (stdout: NodeJS.WriteStream): Size => ({
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

/** The terminal's size, updated on resize so the layout follows it. */
export function useTerminalSize(): Size {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => read(stdout));
  useEffect(() => {
    const onResize = () => setSize(read(stdout));
    stdout.on('resize', onResize);
    onResize();
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

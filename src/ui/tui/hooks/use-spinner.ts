import { useEffect, useState } from 'react';

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A spinner character that turns while `spinning`: something is under way. */
export function useSpinner(spinning: boolean): string {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!spinning) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 120);
    return () => clearInterval(timer);
  }, [spinning]);
  return FRAMES[frame] ?? '…';
}

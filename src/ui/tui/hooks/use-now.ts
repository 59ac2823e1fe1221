import { useEffect, useState } from 'react';

/** The current time, refreshed every second while `ticking` (the elapsed clock of a running loop). */
export function useNow(ticking: boolean, now: () => number = Date.now): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    setTime(now());
    if (!ticking) return;
    const timer = setInterval(() => setTime(now()), 1000);
    return () => clearInterval(timer);
  }, [ticking, now]);
  return time;
}

import { useEffect, useState } from 'react';

/**
 * The time, rounded to the minute and updated on the minute: waiting times change once a minute, so the rows
 * in view render again once a minute and not on every tick.
 */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const wait = 60_000 - (Date.now() % 60_000) + 50;
      timer = setTimeout(() => {
        setNow(Math.floor(Date.now() / 60_000) * 60_000);
        schedule();
      }, wait);
    };
    schedule();
    return () => clearTimeout(timer);
  }, []);
  return now;
}

import cronstrue from 'cronstrue';
import type { Heartbeat } from '../types.js';
import { cronFields } from './schedule.js';

const every = (seconds: number): string => {
  const units: [number, string][] = [
    [604_800, 'week'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds % size === 0) return seconds === size ? `Every ${unit}` : `Every ${seconds / size} ${unit}s`;
  }
  return `Every ${seconds} seconds`;
};

/**
 * A heartbeat's schedule in words, as its record and page show it: cronstrue's English for the cron
 * expression (24-hour clock) followed by the zone ("At 03:00, Monday through Friday, Europe/Berlin"),
 * or the period ("Every day").
 */
export const describeSchedule = (h: Pick<Heartbeat, 'schedule' | 'timezone' | 'period_seconds'>): string => {
  if (!h.schedule) return every(h.period_seconds);
  let words: string;
  try {
    words = cronstrue.toString(cronFields(h.schedule), { use24HourTimeFormat: true });
  } catch {
    words = h.schedule;
  }
  return `${words}, ${h.timezone || 'UTC'}`;
};

import type { Role } from '../types.js';

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2 };

/** viewer reads; member also changes monitors, heartbeats and alerts; admin also manages the workspace. */
export const hasRole = (actual: Role, needed: Role): boolean => rank[actual] >= rank[needed];

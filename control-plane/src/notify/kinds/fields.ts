import { z } from 'zod';
import { httpUrl } from '../../domain/destinations.js';

/** Config fields several kinds share; `httpUrl` is the one contact methods use too (destinations.ts). */
export { httpUrl };

/** A service's base address: defaults to its public one; another for an EU instance, a proxy or a test. */
export const apiUrl = (publicAddress: string) =>
  httpUrl.default(publicAddress).describe(`The service's address (default ${publicAddress}).`);

/** A token or key: one line, printable. */
export const token = (what: string, max = 512) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces')
    .describe(what);

/** Joins a base URL and a path without doubling or losing the slash. */
export const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

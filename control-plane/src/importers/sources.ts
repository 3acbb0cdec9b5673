import { source as gatus } from './gatus/index.js';
import { source as healthchecks } from './healthchecks/index.js';
import type { ImportSource } from './import-source.js';
import { source as uptimeKuma } from './uptime-kuma/index.js';
import { source as uptimerobot } from './uptimerobot/index.js';

/**
 * The sources of `npx lookout import <source> …`. Each lives in its own folder whose `index.ts`
 * exports `source: ImportSource`; a new source is a folder and one import and one entry here (the
 * four below exist from the start, so each importer's owner changes only its own folder).
 */
export const IMPORT_SOURCES: readonly ImportSource[] = [uptimeKuma, healthchecks, uptimerobot, gatus];

export const importSourceNamed = (name: string) => IMPORT_SOURCES.find((s) => s.name === name);

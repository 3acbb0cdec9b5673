import type { FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import { SEVERITIES } from '../types.js';
import { uuid } from '../validation.js';
import type { GroupStore } from './group-store.js';

/**
 * What monitors and heartbeats share to be found and sorted by: a group (`group_id`, one at most), tags
 * (`key` or `key:value`) and a severity (docs/decisions.md, "Groups and tags").
 */

/** The most tags one monitor or heartbeat carries. */
export const MAX_TAGS = 20;
/** The longest tag, `key:value` together (as long as a Kubernetes label's name part). */
export const MAX_TAG_LENGTH = 63;

/** `key` or `key:value`, each part of lower-case letters, digits, `-` and `_`. */
export const TAG = /^[a-z0-9_-]+(?::[a-z0-9_-]+)?$/;
const TAG_RULE = `must be key or key:value of lower-case letters, digits, - and _ (at most ${MAX_TAG_LENGTH} characters), such as env:prod`;

export const tag = () =>
  z
    .string()
    .max(MAX_TAG_LENGTH, TAG_RULE)
    .regex(TAG, TAG_RULE)
    .describe('A tag: `key` or `key:value` (lower-case letters, digits, `-`, `_`), such as `env:prod`.');

/** A list of tags as stored: each valid, repeats dropped (the first kept), at most MAX_TAGS. */
export const tagList = () =>
  z
    .array(tag())
    .max(MAX_TAGS)
    .transform((tags) => [...new Set(tags)])
    .describe(`Up to ${MAX_TAGS} tags, each \`key\` or \`key:value\`; repeats are dropped.`);

/** The fields monitors and heartbeats both take. */
export const labelFields = {
  group_id: uuid()
    .transform((id) => id.toLowerCase())
    .nullable()
    .describe('The group this belongs to (GET /groups), or null.'),
  tags: tagList(),
  severity: z
    .enum(SEVERITIES)
    .describe('`critical` (the default) or `warning`: how loud an alert it raises is.'),
};

/** The list filters by tag and group (`GET /monitors`, `GET /heartbeats`, and what MCP and the web app send). */
export const labelFilters = {
  tag: tag().optional().describe('Only those carrying this tag (the whole `key` or `key:value`).'),
  group_id: z
    .union([z.literal('none'), uuid().transform((id) => id.toLowerCase())])
    .optional()
    .describe('Only those of this group; `none`: only those in no group.'),
};

export const NO_GROUP_PROBLEM = 'no group with this id in the workspace';

/**
 * The group ids of `wanted` (with the field each was given in) that name no group of the workspace:
 * one bounded read however many fields name them (a batch of 1,000 monitors names few groups).
 */
export const groupProblems = async (
  store: Pick<GroupStore, 'getGroupsByIds'>,
  workspaceId: string,
  wanted: { field: string; id: string | null | undefined }[],
): Promise<FieldProblem[]> => {
  const ids = [...new Set(wanted.map((w) => w.id).filter((id): id is string => typeof id === 'string'))];
  if (ids.length === 0) return [];
  const found = new Set((await store.getGroupsByIds(workspaceId, ids)).map((g) => g.id));
  return wanted
    .filter((w) => typeof w.id === 'string' && !found.has(w.id))
    .map((w) => ({ field: w.field, message: NO_GROUP_PROBLEM }));
};

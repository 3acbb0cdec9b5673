import { AppError, type FieldProblem } from '@lookout/shared';
import { z } from 'zod';
import { problemsIn, throwIfProblems } from '../validation.js';
import { SECRET_NAME } from './sealed-secrets.js';
import type { WorkspaceSecret } from './secret-store.js';

/** The most secrets one workspace holds (a list is one bounded read; a monitor's save one more). */
export const MAX_SECRETS = 100;
/** The longest value a secret may have (characters). */
export const MAX_SECRET_VALUE = 8192;
/** Values shorter than this show no hint: four characters of a short value give too much of it away. */
export const HINT_MIN_LENGTH = 12;

/** `PUT /secrets/{NAME}`'s body: the value only (write-only: it is never returned). */
export const secretBody = z.strictObject({
  value: z
    .string()
    .min(1)
    .max(MAX_SECRET_VALUE)
    .describe(`The value (1 to ${MAX_SECRET_VALUE} characters): write-only, never returned or logged.`),
});

const nameProblems = (name: string): FieldProblem[] =>
  SECRET_NAME.test(name)
    ? []
    : [
        {
          field: 'name',
          message:
            'must be upper-case letters, digits and _, starting with a letter, at most 64 characters (e.g. PAY_TOKEN)',
        },
      ];

/** A name as a client gives it in a path: refused with the same words everywhere. */
export const checkSecretName = (name: string): string => {
  throwIfProblems(nameProblems(name));
  return name;
};

/** What the API shows of a value: its last four characters when it has at least HINT_MIN_LENGTH, else ''. */
export const secretHint = (value: string): string => {
  const chars = [...value];
  return chars.length >= HINT_MIN_LENGTH ? chars.slice(-4).join('') : '';
};

/** The name and value of a PUT: one 422 naming the name, the value or any other field that is wrong. */
export const secretPut = (name: string, body: unknown): { name: string; value: string } => {
  const parsed = problemsIn(secretBody, body);
  throwIfProblems([...nameProblems(name), ...parsed.problems]);
  return { name, value: parsed.data!.value };
};

/** A secret not set in the workspace (the routes' 404). */
export const secretNotFound = (name: string) =>
  new AppError('not_found', `No secret ${name} is set in this workspace.`);

/** The cap: a new name past MAX_SECRETS is refused (a replaced value never is). */
export const checkSecretRoom = (existing: readonly Pick<WorkspaceSecret, 'name'>[], name: string) => {
  if (existing.length >= MAX_SECRETS && !existing.some((s) => s.name === name))
    throw new AppError(
      'conflict',
      `This workspace has ${MAX_SECRETS} secrets, the most it may; delete one before adding ${name}.`,
    );
};

/** A 422 detail's words for a secret a monitor names that is not set. */
export const missingSecretMessage = (name: string) =>
  `names secret ${name}, which is not set in this workspace`;

import { type FieldProblem, validationError } from '@lookout/shared';
import { z } from 'zod';

/** A zod issue path as a field name: `auth.username`, `UUIDs[2]`. */
export const fieldName = (path: PropertyKey[]): string =>
  path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );

const describeType = (t: string) => (t === 'int' ? 'an integer' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** One sentence per problem, in the same words everywhere. */
const messageFor = (iss: z.core.$ZodRawIssue): string | undefined => {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      return `must be ${describeType(iss.expected)}`;
    case 'too_big':
      if (iss.origin === 'string') return `must be at most ${iss.maximum} characters`;
      if (iss.origin === 'array') return `must have at most ${iss.maximum} items`;
      return `must be at most ${iss.maximum}`;
    case 'too_small':
      if (iss.origin === 'string')
        return Number(iss.minimum) === 1 ? 'must not be empty' : `must be at least ${iss.minimum} characters`;
      if (iss.origin === 'array')
        return `must have at least ${iss.minimum} item${Number(iss.minimum) === 1 ? '' : 's'}`;
      return `must be at least ${iss.minimum}`;
    case 'invalid_value':
      return `must be one of: ${iss.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_union':
      return 'has an invalid shape';
    default:
      return undefined;
  }
};

export const problemsOf = (error: z.ZodError): FieldProblem[] =>
  error.issues.flatMap((iss) =>
    iss.code === 'unrecognized_keys'
      ? iss.keys.map((k) => ({ field: fieldName([...iss.path, k]), message: 'is not a known field' }))
      : [{ field: fieldName(iss.path) || '(body)', message: iss.message }],
  );

/** Parses or throws one 422 listing every bad field. */
export const parseOrThrow = <S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.output<S> => {
  const r = schema.safeParse(input, { error: messageFor });
  if (r.success) return r.data;
  const details = problemsOf(r.error).map((d) => (d.field === '(body)' ? { ...d, field: where } : d));
  throw validationError(details);
};

/** Throws one 422 when there are problems. */
export const throwIfProblems = (problems: FieldProblem[]) => {
  if (problems.length > 0) throw validationError(problems);
};

export const uuid = () =>
  z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

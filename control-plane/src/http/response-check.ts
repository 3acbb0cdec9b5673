import { AppError } from '@lookout/shared';
import type { AnyRoute } from './route.js';

/**
 * Checks a handler's result, as it goes on the wire (JSON), against the response its route declares,
 * so the OpenAPI document cannot promise a shape the API does not give. Throws an `internal` error
 * naming every mismatching field; used when config `validate_responses` is on (development, tests).
 */
export const checkResponse = (r: AnyRoute, result: unknown): void => {
  const name = `${r.method.toUpperCase()} ${r.path}`;
  if (r.response === null) {
    if (result !== undefined) throw new AppError('internal', `${name} declares no body but returned one.`);
    return;
  }
  const wire = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const parsed = r.response.safeParse(wire);
  if (parsed.success) return;
  throw new AppError(
    'internal',
    `The response of ${name} does not match the schema it declares.`,
    parsed.error.issues.map((i) => ({
      field: i.path.map(String).join('.') || '(body)',
      message: i.message,
    })),
  );
};

import { z } from 'zod';
import { errorResponse, responseSchemas } from './responses.js';
import type { AnyRoute } from './route.js';

/** A request schema as clients send it (`input`), or a response schema as they receive it (`output`). */
const schemaOf = (s: z.ZodType, io: 'input' | 'output' = 'input') => {
  const { $schema: _s, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/**
 * A response schema as clients receive it; the named shapes in it (responseSchemas: Monitor, Alert, …)
 * are collected into `named` and referred to as `#/components/schemas/<id>`.
 */
const responseSchemaOf = (s: z.ZodType, named: Record<string, unknown>) => {
  const json = JSON.stringify(
    z.toJSONSchema(s, { io: 'output', unrepresentable: 'any', metadata: responseSchemas }),
  );
  const {
    $schema: _s,
    $defs,
    ...rest
  } = JSON.parse(json.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown> & {
    $defs?: Record<string, unknown>;
  };
  for (const [id, def] of Object.entries($defs ?? {})) named[id] ??= def;
  return rest;
};

/** OpenAPI 3.1 built from the route table and the very schemas that validate requests. */
/** An OpenAPI server object: a URL, optionally a template with variables. */
export interface OpenApiServer {
  url: string;
  variables?: Record<string, { default: string; description?: string }>;
}

export const buildOpenApi = (routes: AnyRoute[], server: OpenApiServer) => {
  const named: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const params: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.query) {
      const q = schemaOf(r.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        params.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
      }
    }
    const ok = r.status ?? 200;
    const responses: Record<string, unknown> = {
      [String(ok)]: {
        description: r.responses?.[ok] ?? 'Success',
        ...(r.response
          ? {
              content: {
                'application/json': { schema: responseSchemaOf(r.response, named) },
                ...Object.fromEntries(
                  (r.binary ?? []).map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
                ),
              },
            }
          : r.binary
            ? {
                content: Object.fromEntries(
                  r.binary.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]),
                ),
              }
            : {}),
      },
    };
    const error = (description: string) => ({
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    for (const [code, text] of Object.entries(r.responses ?? {})) {
      if (Number(code) >= 400) responses[code] = error(text);
    }
    const auth = r.auth ?? 'api_key';
    const takesBody = r.method === 'post' || r.method === 'put' || r.method === 'patch';
    if (takesBody) {
      responses['400'] ??= error('Malformed JSON, or a body that is not application/json');
      responses['413'] ??= error('The body is larger than this endpoint accepts');
    }
    if (auth === 'api_key' || auth === 'session') {
      responses['401'] ??= error(
        auth === 'session'
          ? 'Not signed in, or the session ended or belongs to another workspace'
          : 'Missing, invalid, revoked or expired key or session, or one of another workspace',
      );
      responses['403'] ??= error(
        auth === 'session'
          ? 'Called with an API key (this needs a web app session), or without the CSRF token'
          : 'Your role does not allow this, or a session write without the CSRF token',
      );
    }
    if (auth === 'service_key') responses['401'] ??= error('Missing or invalid service key');
    if (r.path.includes('{')) responses['404'] ??= error('No such resource in this workspace');
    if (r.body || r.query || takesBody)
      responses['422'] ??= error('Invalid fields (body or query parameters), each listed in details');
    if (auth !== 'none')
      responses['429'] ??= error('Too many failed credentials from this address; retry after Retry-After');
    responses['500'] ??= error(
      'Something went wrong on our side (logged; the message never leaks internals)',
    );
    paths[r.path] ??= {};
    paths[r.path]![r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}${r.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      security:
        auth === 'api_key'
          ? [{ apiKey: [] }, { session: [] }]
          : auth === 'session'
            ? [{ session: [] }]
            : auth === 'service_key'
              ? [{ serviceKey: [] }, { serviceKeyHeader: [] }]
              : [],
      ...(params.length ? { parameters: params } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(r.body) } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lookout API',
      version: '1.0.0',
      description: 'Monitoring and alerting. Each workspace has its own subdomain; send a key in X-API-Key.',
    },
    servers: [server],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        serviceKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An integration’s service key (inbound endpoints; PagerDuty events carry it as routing_key).',
        },
        serviceKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Lookout-Service-Key' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'lookout_session',
          description:
            'The web app’s session (POST /session signs in; `__Host-lookout_session` over https). Every write with it also needs the session’s CSRF token in X-CSRF-Token.',
        },
      },
      schemas: { Error: schemaOf(errorResponse, 'output'), ...named },
    },
    paths,
  };
};

/**
 * A check type's own fields as GET /check-types describes them (their JSON Schemas): which control each
 * takes, its label, and its value as typed ⇄ as the API takes it. The first five types' fields keep the
 * form's richer hand-made inputs; every other field is generated from here.
 */
import { useEffect, useState } from 'preact/hooks';
import {
  api,
  type CheckTypeField,
  type CheckTypeInfo,
  type MonitorDetail,
  type MonitorType,
} from '../../api.js';

/** One JSON Schema, as far as the form reads it. */
export interface Schema {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
  items?: Schema & { properties?: Record<string, Schema>; required?: string[] };
}

/** The control a field takes: an enum a select, a boolean a checkbox, a long string a textarea. */
export type Control = 'number' | 'checkbox' | 'select' | 'text' | 'textarea' | 'list';

export interface FieldShape {
  control: Control;
  /** null is a value it may take (left empty). */
  nullable: boolean;
  choices: string[];
  schema: Schema;
}

export const shapeOf = (raw: Record<string, unknown>): FieldShape => {
  const s = raw as Schema;
  const parts = s.anyOf ?? [s];
  const nullable = parts.some((p) => p.type === 'null');
  const base = parts.find((p) => p.type !== 'null') ?? s;
  const choices = (base.enum ?? []).map(String);
  const control: Control =
    choices.length > 0
      ? 'select'
      : base.type === 'integer' || base.type === 'number'
        ? 'number'
        : base.type === 'boolean'
          ? 'checkbox'
          : base.type === 'array'
            ? 'list'
            : base.maxLength !== undefined && base.maxLength <= 1000
              ? 'text'
              : 'textarea';
  return { control, nullable, choices, schema: base };
};

const WORDS: Record<string, string> = {
  grpc: 'gRPC',
  tls: 'TLS',
  ws: 'WebSocket',
  smtp: 'SMTP',
  ssl: 'TLS',
  url: 'URL',
  ms: '(ms)',
  dns: 'DNS',
};

/** Fields several types share, in the words the first types' inputs use. */
const LABELS: Record<string, string> = {
  ssl_cert_monitoring: 'Watch the TLS certificate’s expiry',
  ssl_cert_expiry_alert_days: 'Warn days before the certificate expires',
};

/** `grpc_service` → "gRPC service", `smtp_security` → "SMTP security", `packet_count` → "Packet count". */
export const fieldLabel = (name: string) => {
  if (LABELS[name]) return LABELS[name];
  const words = name.split('_').map((w) => WORDS[w] ?? w);
  const first = words[0]!;
  words[0] = first === first.toLowerCase() ? first[0]!.toUpperCase() + first.slice(1) : first;
  return words.join(' ');
};

/** What the API says of a field, in a hint: its description, its range, its default. */
export const fieldHint = (f: CheckTypeField, shape: FieldShape, editing: boolean): string | undefined => {
  const s = shape.schema;
  // Left empty, a value the API needs is left out: the type's default on create, unchanged on an edit.
  const leftOut = !shape.nullable && (shape.control === 'number' || (s.minLength ?? 0) > 0);
  if (editing && leftOut)
    return (
      [
        s.description,
        s.minimum !== undefined && s.maximum !== undefined ? `From ${s.minimum} to ${s.maximum}.` : null,
      ]
        .filter(Boolean)
        .join(' ') || undefined
    );
  const parts = [
    s.description,
    s.minimum !== undefined && s.maximum !== undefined ? `From ${s.minimum} to ${s.maximum}.` : null,
    shape.control === 'list' ? 'Separate them with commas.' : null,
    f.default !== null &&
    f.default !== '' &&
    shape.control !== 'checkbox' &&
    shape.control !== 'select' &&
    !s.description?.includes('default')
      ? `Empty: ${String(f.default)}.`
      : null,
    shape.nullable && f.default === null ? 'Optional.' : null,
    !shape.nullable && f.default === null && !f.required && shape.control === 'number'
      ? 'Empty: the default.'
      : null,
  ];
  return parts.filter(Boolean).join(' ') || undefined;
};

/** Fields the form has hand-made inputs for: in the first five types only (a new field of theirs is generated). */
const HAND_MADE = new Set([
  'http_method',
  'expected_status_code',
  'required_keyword',
  'auth',
  'request_headers',
  'request_body',
  'follow_redirects',
  'ssl_cert_monitoring',
  'ssl_cert_expiry_alert_days',
  'port',
  'dns_record_type',
  'dns_expected_values',
  'dns_resolver',
  'domain_expiry_alert_days',
]);
const HAND_MADE_TYPES: readonly MonitorType[] = ['http', 'api', 'dns', 'tcp', 'domain'];
/** Every type's: the timing section's, the assertion, steps and script editors'. */
const OWN_PLACE = new Set([
  'response_time_threshold_ms',
  'retry_interval_seconds',
  'assertions',
  'steps',
  'script',
]);

/** The fields of a type that the form generates from their JSON Schemas. */
export const generatedFields = (ct: CheckTypeInfo | undefined): CheckTypeField[] =>
  (ct?.fields ?? []).filter(
    (f) => !OWN_PLACE.has(f.name) && !(HAND_MADE_TYPES.includes(ct!.type) && HAND_MADE.has(f.name)),
  );

/**
 * The generated fields shown now: a field that only matters when a box is ticked (the certificate's
 * warning days) waits for the box.
 */
export const shownFields = (ct: CheckTypeInfo | undefined, typed: (f: CheckTypeField) => Typed) => {
  const all = generatedFields(ct);
  const watch = all.find((f) => f.name === 'ssl_cert_monitoring');
  return all.filter((f) => f.name !== 'ssl_cert_expiry_alert_days' || !watch || typed(watch) === true);
};

export const hasField = (ct: CheckTypeInfo | undefined, name: string) =>
  ct?.fields.some((f) => f.name === name) ?? false;

/** A value as its control holds it: text, or a checkbox's boolean. */
export type Typed = string | boolean;

/** What a generated control starts with: the monitor's value, else the type's default. */
export const typedOf = (f: CheckTypeField, existing: MonitorDetail | null): Typed => {
  const shape = shapeOf(f.schema);
  const v = existing ? (existing as unknown as Record<string, unknown>)[f.name] : f.default;
  if (shape.control === 'checkbox') return v === true;
  if (v === null || v === undefined)
    return shape.control === 'select' && !shape.nullable ? (shape.choices[0] ?? '') : '';
  return Array.isArray(v) ? v.join(', ') : String(v);
};

/**
 * What the API is sent for a generated field; undefined leaves it out (the type's default on create,
 * the stored value on edit). A number that is not one goes as the text, so that the API names it.
 */
export const sentValue = (f: CheckTypeField, typed: Typed): unknown => {
  const shape = shapeOf(f.schema);
  if (shape.control === 'checkbox') return typed === true;
  const text = String(typed).trim();
  if (shape.control === 'list')
    return text
      .split(/[,\n]/)
      .map((x) => x.trim())
      .filter(Boolean);
  if (text === '')
    return shape.nullable
      ? null
      : (shape.schema.minLength ?? 0) > 0 || shape.control === 'number'
        ? undefined
        : '';
  if (shape.control === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  return shape.control === 'textarea' ? String(typed) : text;
};

let loaded: Promise<CheckTypeInfo[]> | undefined;

/** The check types, fetched once per page load (they change only with the server). */
/** A type's label from GET /check-types (`Multi-step API`), its name in capitals until that answers. */
export const useTypeLabel = (type: string | undefined): string => {
  const [labels, setLabels] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    checkTypes().then(
      (all) => setLabels(Object.fromEntries(all.map((t) => [t.type, t.label]))),
      () => {},
    );
  }, []);
  return type ? (labels?.[type] ?? type.toUpperCase()) : '';
};

export const checkTypes = (): Promise<CheckTypeInfo[]> => {
  loaded ??= api.listCheckTypes().then(
    (r) => r.data,
    (e) => {
      loaded = undefined;
      throw e;
    },
  );
  return loaded;
};

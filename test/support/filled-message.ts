import { create, type DescMessage, ScalarType } from '@bufbuild/protobuf';

/** A value for a scalar field that is not its default (non-ASCII for strings), varied by `seed`. */
const scalar = (type: ScalarType, seed: number): unknown => {
  switch (type) {
    case ScalarType.STRING:
      return `v${seed}-é✓`;
    case ScalarType.BOOL:
      return true;
    case ScalarType.UINT32:
      return seed * 1000 + 7;
    case ScalarType.DOUBLE:
      return seed + 0.25;
    case ScalarType.BYTES:
      return new Uint8Array([seed & 255, 0, 255]);
    case ScalarType.INT64:
    case ScalarType.UINT64:
      return BigInt(seed) * 10n ** 12n + 3n;
    default:
      throw new Error(`no ${ScalarType[type]} field is written or read by hand yet: add a value here`);
  }
};

/**
 * The message with every field of its schema set to a value that is not its default (lists to two
 * values, messages filled in turn), found by reflection: for the tests that hold a hand-written encoder
 * or decoder to protobuf-es, so that a field added to the proto fails them until it is handled.
 */
export const filledMessage = (schema: DescMessage, seed = 1): Record<string, unknown> => {
  const m = create(schema) as unknown as Record<string, unknown>;
  for (const f of schema.fields) {
    const s = seed * 31 + f.number;
    if (f.fieldKind === 'scalar') m[f.localName] = scalar(f.scalar, s);
    else if (f.fieldKind === 'message') m[f.localName] = filledMessage(f.message, s);
    else if (f.fieldKind === 'list' && f.listKind === 'scalar') {
      m[f.localName] = [scalar(f.scalar, s), scalar(f.scalar, s + 1)];
    } else if (f.fieldKind === 'list' && f.listKind === 'message') {
      m[f.localName] = [filledMessage(f.message, s), filledMessage(f.message, s + 1)];
    } else throw new Error(`no field like ${f.name} is written or read by hand yet: handle it`);
  }
  return m;
};

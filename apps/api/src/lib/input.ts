import type { FastifyRequest } from 'fastify';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TObject, TSchema } from 'typebox';
import { ApiError } from './api-error.js';

/**
 * Strict validation, unlike Fastify's defaults (docs/security.md §1.4): unknown
 * fields are rejected rather than stripped, and body values are never coerced.
 */
const ajv = new Ajv({
  strict: false,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
});
(addFormatsModule as unknown as (a: Ajv, formats: string[]) => Ajv)(ajv, [
  'date',
  'date-time',
  'email',
  'uri',
]);

const compiled = new WeakMap<TSchema, ValidateFunction>();
export function validatorFor(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

type JsonSchemaish = {
  type?: string | string[];
  properties?: Record<string, JsonSchemaish>;
  items?: JsonSchemaish;
  anyOf?: JsonSchemaish[];
  'x-trim'?: boolean;
};

// A lone surrogate: a high one not followed by a low one, or a low one without a high one.
const BAD_STRING =
  // eslint-disable-next-line no-control-regex -- finding NUL is the point
  /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How deep an input may nest. The deepest call of the contract (competition
 * results: body → results → result) needs 3; a body of 10,000 nested arrays
 * would otherwise reach every recursive walk of the value.
 */
export const MAX_INPUT_DEPTH = 16;

/** What `badPath` answers for a bad field name: the error names no field. */
const UNNAMED = Symbol('unnamed');

/**
 * Where the first bad value under `value` is: '' for `value` itself, a dotted
 * path below it (array elements share their array's path), UNNAMED for a bad
 * field name, undefined when all is clean. Recursion stops at
 * MAX_INPUT_DEPTH, so no input can overflow the call stack; the path is
 * built only for a bad value (this runs on every call).
 */
function badPath(
  value: unknown,
  depth: number,
): string | typeof UNNAMED | undefined {
  if (typeof value === 'string') return BAD_STRING.test(value) ? '' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_INPUT_DEPTH) return '';
  if (Array.isArray(value)) {
    for (const v of value) {
      const bad = badPath(v, depth + 1);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    if (BAD_STRING.test(k)) return UNNAMED;
    const bad = badPath(record[k], depth + 1);
    if (bad === UNNAMED) return bad;
    if (bad !== undefined) return bad ? `${k}.${bad}` : k;
  }
  return undefined;
}

/**
 * NUL becomes a database error and lone surrogates are silently mangled:
 * refuse both, and inputs nested deeper than any call needs.
 */
function assertCleanInput(root: Record<string, unknown>): void {
  const bad = badPath(root, 0);
  if (bad !== undefined)
    throw new ApiError(
      'ValidationError',
      bad === UNNAMED || bad === '' ? undefined : bad,
    );
}

function trimMarked(
  schema: JsonSchemaish | undefined,
  value: unknown,
): unknown {
  if (!schema) return value;
  if (typeof value === 'string') return schema['x-trim'] ? value.trim() : value;
  if (Array.isArray(value) && schema.items)
    return value.map((v) => trimMarked(schema.items, v));
  if (value !== null && typeof value === 'object' && schema.properties) {
    const obj = value as Record<string, unknown>;
    for (const [k, sub] of Object.entries(schema.properties)) {
      if (k in obj) obj[k] = trimMarked(sub, obj[k]);
    }
  }
  return value;
}

const typesOf = (s: JsonSchemaish | undefined): string[] => {
  if (!s) return [];
  if (s.anyOf) return s.anyOf.flatMap(typesOf);
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
};

/** Query strings carry only text: turn it into the type the schema asks for, when unambiguous. */
function fromQuery(schema: JsonSchemaish | undefined, raw: string): unknown {
  const types = typesOf(schema);
  if (
    (types.includes('integer') || types.includes('number')) &&
    /^-?\d+(\.\d+)?$/.test(raw)
  )
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false'))
    return raw === 'true';
  if (types.includes('array')) return raw === '' ? [] : raw.split(',');
  return raw;
}

function fieldOf(err: ErrorObject | undefined): string | undefined {
  if (!err) return undefined;
  const p = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (err.keyword === 'required') {
    const missing = (err.params as { missingProperty?: string })
      .missingProperty;
    return p ? `${p}.${missing}` : missing;
  }
  if (err.keyword === 'additionalProperties') {
    const extra = (err.params as { additionalProperty?: string })
      .additionalProperty;
    return p ? `${p}.${extra}` : extra;
  }
  return p || undefined;
}

/**
 * Reads a route's inputs as docs/api.md transports them: from the query string
 * or the JSON body, the body winning when both name a field. Duplicate query
 * keys, unknown fields, NUL characters and wrong types are a ValidationError.
 */
export function readInput<S extends TObject>(
  schema: S,
  req: FastifyRequest,
): Static<S> {
  const props = (schema as JsonSchemaish).properties ?? {};
  const merged: Record<string, unknown> = Object.create(null) as Record<
    string,
    unknown
  >;
  const query = (req.query ?? {}) as Record<string, string | string[]>;
  for (const [key, raw] of Object.entries(query)) {
    if (Array.isArray(raw)) throw new ApiError('ValidationError', key);
    merged[key] = fromQuery(props[key], raw);
  }
  const body: unknown = req.body;
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body))
      throw new ApiError('ValidationError');
    for (const [key, value] of Object.entries(body)) merged[key] = value;
  }
  assertCleanInput(merged);
  trimMarked(schema, merged);
  const validate = validatorFor(schema);
  if (!validate(merged))
    throw new ApiError('ValidationError', fieldOf(validate.errors?.[0]));
  return merged as Static<S>;
}

/**
 * A structural check of protobuf bytes against the ONNX schema (`schema.ts`). A field with the
 * wrong wire type, invalid UTF-8 in a string, truncation, bad tags and runaway nesting are
 * each reported with the byte offset, instead of yielding silently wrong values.
 *
 * The reader (`proto-reader.ts`) checks the same conditions as it decodes (one walk over the
 * bytes) and uses {@link WireWalk} for the fields it does not decode itself; when it rejects
 * the bytes, `checkWireFormat` walks them again to name the first problem and its offset.
 */
import { Messages } from '../diagnostics';
import { type OnnxSchemaMessage, onnxSchemaJson } from './schema';

/** A problem found in the bytes, with its absolute byte offset. */
export interface WireProblem {
  readonly offset: number;
  readonly message: string;
}

/** The top-level messages of the ONNX schema that bytes can be checked as. */
export type OnnxMessageName = 'ModelProto' | 'TensorProto';

const VARINT_TYPES = new Set(['int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool']);
const FIXED64_TYPES = new Set(['double', 'fixed64', 'sfixed64']);
const FIXED32_TYPES = new Set(['float', 'fixed32', 'sfixed32']);
const WIRE_NAMES = ['varint', 'fixed64', 'length-delimited', 'start-group', 'end-group', 'fixed32'];

/** One field of a schema message, as the walk checks it. */
export interface FieldInfo {
  readonly name: string;
  /** Wire type of one element (0, 1, 2 or 5). */
  readonly wire: number;
  /** Repeated numeric field: wire type 2 (packed) is also accepted. */
  readonly packable: boolean;
  /** Fixed element size for packed fixed32/fixed64 fields, 0 for varints. */
  readonly fixedSize: number;
  readonly isString: boolean;
  readonly message?: TypeInfo;
}

/** A schema message: its name (in messages) and fields by number. */
export interface TypeInfo {
  readonly name: string;
  readonly fields: Map<number, FieldInfo>;
}

/** A message of the schema with the scopes its type names resolve in (innermost first). */
interface ScopedMessage {
  readonly name: string;
  readonly message: OnnxSchemaMessage;
  readonly scopes: readonly Readonly<Record<string, OnnxSchemaMessage>>[];
}

const cache = new Map<OnnxSchemaMessage, TypeInfo>();

/** Resolves a field's type name as protobuf does: the innermost enclosing scope first. */
function resolveMessage(typeName: string, scopes: ScopedMessage['scopes']): ScopedMessage | undefined {
  for (let i = 0; i < scopes.length; i++) {
    const message = scopes[i]![typeName];
    if (message) return { name: typeName, message, scopes: message.nested ? [message.nested, ...scopes.slice(i)] : scopes.slice(i) };
  }
  return undefined;
}

function typeInfo(scoped: ScopedMessage): TypeInfo {
  const cached = cache.get(scoped.message);
  if (cached) return cached;
  const fields = new Map<number, FieldInfo>();
  const info: TypeInfo = { name: scoped.name, fields };
  cache.set(scoped.message, info);
  for (const [name, field] of Object.entries(scoped.message.fields)) {
    const resolved = resolveMessage(field.type, scoped.scopes);
    const repeated = field.rule === 'repeated';
    let wire: number;
    let fixedSize = 0;
    if (resolved || field.type === 'string' || field.type === 'bytes') wire = 2;
    else if (FIXED64_TYPES.has(field.type)) (wire = 1), (fixedSize = 8);
    else if (FIXED32_TYPES.has(field.type)) (wire = 5), (fixedSize = 4);
    else if (VARINT_TYPES.has(field.type)) wire = 0;
    else throw new Error(`internal: unhandled protobuf field type ${field.type}`);
    fields.set(field.id, {
      name,
      wire,
      packable: repeated && wire !== 2,
      fixedSize,
      isString: field.type === 'string',
      message: resolved ? typeInfo(resolved) : undefined,
    });
  }
  return info;
}

/** The checked form of a top-level message of the ONNX schema. */
export function topLevel(name: OnnxMessageName): TypeInfo {
  const resolved = resolveMessage(name, [onnxSchemaJson.nested.onnx.nested]);
  if (!resolved) throw new Error(`internal: no message ${name} in the ONNX schema`);
  return typeInfo(resolved);
}

/** The deepest nesting of messages accepted (the top-level message is at depth 0). */
export const MAX_DEPTH = 100;
const TRUNCATED = -1;
const BAD_VARINT = -2;

/** `ModelProto.graph` / `field 7 of NodeProto`: how a field is named in messages. */
function describe(field: FieldInfo | undefined, info: TypeInfo, id: number): string {
  return field ? `${info.name}.${field.name}` : `field ${id} of ${info.name}`;
}

/** A walk over protobuf bytes that checks them against the schema, recording the first problem. */
export class WireWalk {
  pos = 0;
  problem: WireProblem | undefined;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly buf: Uint8Array) {}

  fail(offset: number, message: string): false {
    this.problem ??= { offset, message };
    return false;
  }

  /** Reads a varint as a (possibly inexact above 2^53) non-negative number; -1 on error. */
  varint(end: number, what: string): number {
    const start = this.pos;
    const v = this.rawVarint(end);
    if (v >= 0) return v;
    this.fail(start, v === TRUNCATED ? Messages.truncated(what) : Messages.badVarint());
    return -1;
  }

  /**
   * Like {@link varint} for a field value: the field's description (a string built only for a
   * message) is formed on failure, not for every field read.
   */
  fieldVarint(end: number, field: FieldInfo | undefined, info: TypeInfo, id: number, prefix = ''): number {
    const start = this.pos;
    const v = this.rawVarint(end);
    if (v >= 0) return v;
    this.fail(start, v === TRUNCATED ? Messages.truncated(prefix + describe(field, info, id)) : Messages.badVarint());
    return -1;
  }

  /** A varint, or {@link TRUNCATED} / {@link BAD_VARINT} (no problem recorded). */
  private rawVarint(end: number): number {
    const buf = this.buf;
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) return TRUNCATED;
      const b = buf[this.pos++]!;
      value += (b & 0x7f) * mul;
      if (b < 0x80) return value;
      mul *= 128;
    }
    return BAD_VARINT;
  }

  message(info: TypeInfo, end: number, depth: number, endGroup = -1): boolean {
    if (depth > MAX_DEPTH) return this.fail(this.pos, Messages.tooDeep(MAX_DEPTH));
    while (this.pos < end) {
      const tagPos = this.pos;
      const tag = this.varint(end, 'a field tag');
      if (tag < 0) return false;
      const id = Math.floor(tag / 8);
      const wt = tag % 8;
      if (wt === 4) {
        if (id === endGroup) return true;
        return this.fail(tagPos, Messages.groupMismatch());
      }
      if (!this.field(info, tagPos, id, wt, end, depth, endGroup)) return false;
    }
    if (endGroup >= 0) return this.fail(this.pos, Messages.truncated('a group'));
    if (this.pos > end) return this.fail(end, Messages.truncated(`a field of ${info.name}`));
    return true;
  }

  /**
   * Checks one field of a message of type `info` (depth `depth`, ending at `end`) after its tag
   * (field `id`, wire type `wt` other than end-group, read at `tagPos`): the field number, the
   * wire type against the schema, then the value, nested messages included.
   */
  field(info: TypeInfo, tagPos: number, id: number, wt: number, end: number, depth: number, endGroup = -1): boolean {
    if (id === 0 || id > 536870911) return this.fail(tagPos, Messages.badFieldNumber(id));
    if (wt === 6 || wt === 7) return this.fail(tagPos, Messages.badWireType(wt));
    const field = endGroup < 0 ? info.fields.get(id) : undefined;
    if (field && wt !== field.wire && !(field.packable && wt === 2)) {
      const expected = WIRE_NAMES[field.wire]! + (field.packable ? ' or length-delimited (packed)' : '');
      return this.fail(tagPos, Messages.wrongWireType(info.name, field.name, id, WIRE_NAMES[wt]!, expected));
    }
    return this.value(field, info, wt, id, end, depth);
  }

  private value(field: FieldInfo | undefined, info: TypeInfo, wt: number, id: number, end: number, depth: number): boolean {
    switch (wt) {
      case 0:
        return this.fieldVarint(end, field, info, id) >= 0;
      case 1:
      case 5: {
        const size = wt === 1 ? 8 : 4;
        if (this.pos + size > end) return this.fail(this.pos, Messages.truncated(describe(field, info, id)));
        this.pos += size;
        return true;
      }
      case 3:
        return this.message({ name: 'group', fields: new Map() }, end, depth + 1, id);
      default: {
        const lenPos = this.pos;
        const len = this.fieldVarint(end, field, info, id, 'the length of ');
        if (len < 0) return false;
        const start = this.pos;
        if (start + len > end) return this.fail(lenPos, Messages.truncated(describe(field, info, id)));
        this.pos = start + len;
        if (!field) return true;
        if (field.message) {
          this.pos = start;
          const ok = this.message(field.message, start + len, depth + 1);
          this.pos = start + len;
          return ok;
        }
        if (field.isString && len > 0) {
          let ascii = true;
          for (let i = start; i < start + len; i++) {
            if (this.buf[i]! >= 0x80) {
              ascii = false;
              break;
            }
          }
          if (!ascii) {
            try {
              this.utf8.decode(this.buf.subarray(start, start + len));
            } catch {
              return this.fail(start, Messages.badUtf8(info.name, field.name));
            }
          }
          return true;
        }
        if (field.packable) {
          if (field.fixedSize > 0) {
            if (len % field.fixedSize !== 0) return this.fail(lenPos, Messages.badPackedLength(info.name, field.name, len, field.fixedSize));
            return true;
          }
          this.pos = start;
          while (this.pos < start + len) if (this.fieldVarint(start + len, field, info, id) < 0) return false;
          return true;
        }
        return true;
      }
    }
  }
}

/**
 * Checks that `bytes` is a well-formed encoding of the message `type` (tags, wire types per
 * the schema, lengths, UTF-8 strings, nesting depth). Returns the first problem, or undefined.
 */
export function checkWireFormat(bytes: Uint8Array, type: OnnxMessageName): WireProblem | undefined {
  const walk = new WireWalk(bytes);
  walk.message(topLevel(type), bytes.length, 0);
  return walk.problem;
}

/**
 * Result fields whose list is kept as the domain's own value (prefixes as words, a run of zone
 * names: a {@link DeferredList}) until something reads the field: the array of texts is made only
 * then. A reader that understands the value (the HTTP edge's encoders,
 * src/adapters/http/encoders/) asks {@link deferredFieldsOf} and writes the answer from the value
 * itself: a 1024-CIDR split is then 1024 prefixes written once, as bytes, never 1024 strings.
 *
 * Safe by construction: until the field is read, its array does not exist, so nothing can have
 * changed it, and the value is exactly what the read will return. From the first read (or an
 * assignment) on, the field holds an ordinary array and every reader sees it as such.
 * (A cache keyed by the array, as before, could not tell an array changed in place; freezing a
 * 1024-element array costs about 140 µs in the Bun runtime).
 *
 * The bookkeeping lives on the result itself (ADR 65): one record under a module symbol, not
 * enumerable, so `JSON.stringify`, `Object.keys`, spreading, `structuredClone` and deep equality
 * see only the contract's fields; each deferred field is an accessor shared by every result that
 * has a field of that name (no closure, `Map` or `WeakMap` entry per answer).
 */

/** A list the domain keeps as its own value; its elements are made on demand. */
export abstract class DeferredList<T> {
  /** How many elements the list has. */
  abstract get length(): number;
  /** The list itself, made now (a new array on every call). */
  abstract toArray(): T[];
}

/**
 * The fields of `T`, where a list field may be given as a {@link DeferredList} of its elements and a
 * nested object as one made by {@link resultWith}.
 */
export type ResultFields<T> = { [K in keyof T]: FieldOf<T[K]> };

/** A field's value, or, for a list, a {@link DeferredList} of its elements (an optional list too). */
type FieldOf<V> = V | (V extends readonly (infer E)[] ? DeferredList<E> : never);

/**
 * Per deferred field of a result: its {@link DeferredList} while nobody has read or replaced the
 * field, then the array the field holds.
 */
export type DeferredFields = Readonly<Record<string, unknown>>;

/** Where a result made by {@link resultWith} keeps its {@link DeferredFields} (not enumerable). */
const DEFERRED = Symbol("deferred list fields");

interface WithDeferred {
  [DEFERRED]?: Record<string, unknown>;
}

/** The accessor of a deferred field, by the field's name: one for every result with that field. */
const accessors = new Map<string, PropertyDescriptor>();

function accessorOf(key: string): PropertyDescriptor {
  let accessor = accessors.get(key);
  if (accessor === undefined) {
    accessor = {
      enumerable: true,
      configurable: true,
      get(this: WithDeferred): unknown {
        const fields = this[DEFERRED]!;
        const value = fields[key];
        if (!(value instanceof DeferredList)) return value;
        const list = value.toArray();
        fields[key] = list;
        return list;
      },
      set(this: WithDeferred, replacement: unknown): void {
        this[DEFERRED]![key] = replacement;
      },
    };
    accessors.set(key, accessor);
  }
  return accessor;
}

/**
 * The object with `fields`, in their order: a {@link DeferredList} becomes an enumerable field
 * whose array is made on its first read. `JSON.stringify`, `Object.keys`, spreading,
 * `structuredClone` and deep equality all see an ordinary object.
 */
export function resultWith<T extends object>(fields: ResultFields<T>): T {
  const result: Record<string, unknown> = {};
  let deferred: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (value instanceof DeferredList) {
      deferred ??= {};
      deferred[key] = value;
      Object.defineProperty(result, key, accessorOf(key));
    } else {
      result[key] = value;
      // A nested result: the encoder must look inside this one to find it.
      if (deferred === undefined && value !== null && typeof value === "object" && DEFERRED in value)
        deferred = {};
    }
  }
  if (deferred !== undefined) Object.defineProperty(result, DEFERRED, { value: deferred });
  return result as T;
}

/**
 * For an object made by {@link resultWith} with a deferred field or a nested such result: its
 * {@link DeferredFields} (a field's entry is a {@link DeferredList} only while nobody has read it);
 * undefined for any other value.
 */
export function deferredFieldsOf(value: object): DeferredFields | undefined {
  return (value as WithDeferred)[DEFERRED];
}

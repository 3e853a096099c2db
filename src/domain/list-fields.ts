/**
 * Result fields whose list is kept as the domain's own value (prefixes as words, a run of zone
 * names: a {@link DeferredList}) until something reads the field: the array of texts is made only
 * then. A reader that understands the value (the HTTP edge's encoders,
 * src/adapters/http/encoders/) asks {@link unreadListsOf} and writes the answer from the value
 * itself: a 1024-CIDR split is then 1024 prefixes written once, as bytes, never 1024 strings.
 *
 * Safe by construction: until the field is read, its array does not exist, so nothing can have
 * changed it, and the value is exactly what the read will return. From the first read (or an
 * assignment) on, the field is an ordinary array and every reader sees it as such.
 * (A cache keyed by the array, as before, could not tell an array changed in place; freezing a
 * 1024-element array costs about 140 µs in the Bun runtime).
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
 * Per object made by {@link resultWith}: field → its deferred list while nobody has read it, or
 * null for a field holding a nested object made by {@link resultWith} (asked in turn).
 */
const unread = new WeakMap<object, Map<string, DeferredList<unknown> | null>>();

/**
 * The object with `fields`, in their order: a {@link DeferredList} becomes an enumerable field
 * whose array is made on its first read. `JSON.stringify`, `Object.keys`, spreading and deep
 * equality all see an ordinary object.
 */
export function resultWith<T extends object>(fields: ResultFields<T>): T {
  const result: Record<string, unknown> = {};
  let pending: Map<string, DeferredList<unknown> | null> | undefined;
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (value instanceof DeferredList) {
      pending ??= new Map();
      pending.set(key, value);
      const fieldsUnread = pending;
      let list: unknown;
      let made = false;
      Object.defineProperty(result, key, {
        enumerable: true,
        configurable: true,
        get() {
          if (!made) {
            list = value.toArray();
            made = true;
            fieldsUnread.delete(key);
          }
          return list;
        },
        set(replacement: unknown) {
          list = replacement;
          made = true;
          fieldsUnread.delete(key);
        },
      });
    } else {
      result[key] = value;
      if (value !== null && typeof value === "object" && unread.has(value)) {
        pending ??= new Map();
        pending.set(key, null);
      }
    }
  }
  if (pending !== undefined) unread.set(result, pending);
  return result as T;
}

/**
 * For an object made by {@link resultWith}: its fields whose list nobody has read yet, with the
 * deferred list (null: a nested object to ask in turn); undefined for any other value.
 */
export function unreadListsOf(value: object): ReadonlyMap<string, DeferredList<unknown> | null> | undefined {
  return unread.get(value);
}

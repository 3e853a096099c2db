/**
 * Result fields whose list was written once, as JSON, by the code that made it (a batch of
 * canonical address texts, src/domain/ip/text.ts): the JSON is kept, and the list itself is made
 * only when something reads the field. A serializer asks {@link unreadListsOf} and splices the
 * JSON of every field nobody has read (ADR 26): a 1024-CIDR split is then one string, not 1024.
 *
 * Safe by construction: until the field is read, its array does not exist, so nothing can have
 * changed it and its JSON is exactly `JSON.stringify` of what the read will return. From the first
 * read (or an assignment) on, the field is an ordinary array and the JSON is made from it again.
 * (A cache keyed by the array, as before, could not tell an array changed in place; freezing a
 * 1024-element array costs about 140 µs in Bun, ten times the serialization it saves.)
 */

/** A list and the JSON text of it, written together; the list is made on demand. */
export class WrittenList<T> {
  private text: string | undefined;

  /**
   * @param json exactly `JSON.stringify` of the list `make` returns: as text, or as its UTF-8
   *   bytes (ASCII, as the batches write it), decoded only when the text is asked for
   * @param make makes the list; called at most once per field, on its first read
   */
  constructor(
    json: string | Uint8Array,
    private readonly make: () => T[],
  ) {
    if (typeof json === "string") this.text = json;
    else this.bytes = json;
  }

  /** The JSON as UTF-8 bytes, when it was written as bytes (a serializer can send them as they are). */
  readonly bytes: Uint8Array | undefined;

  /** The JSON text. */
  get json(): string {
    this.text ??= utf8.decode(this.bytes);
    return this.text;
  }

  /** The list itself, made now. */
  toArray(): T[] {
    return this.make();
  }
}

const utf8 = new TextDecoder();

/**
 * The fields of `T`, where a list field may be given as a {@link WrittenList} of its elements and a
 * nested object as one made by {@link resultWith}.
 */
export type ResultFields<T> = { [K in keyof T]: FieldOf<T[K]> };

/** A field's value, or, for a list, a {@link WrittenList} of its elements (an optional list too). */
type FieldOf<V> = V | (V extends readonly (infer E)[] ? WrittenList<E> : never);

/**
 * Per object made by {@link resultWith}: field → its list while nobody has read it, or null for a
 * field holding a nested object made by {@link resultWith} (asked in turn).
 */
const unread = new WeakMap<object, Map<string, WrittenList<unknown> | null>>();

/**
 * The object with `fields`, in their order: a {@link WrittenList} becomes an enumerable field whose
 * array is made on its first read. `JSON.stringify`, `Object.keys`, spreading and deep equality all
 * see an ordinary object.
 */
export function resultWith<T extends object>(fields: ResultFields<T>): T {
  const result: Record<string, unknown> = {};
  let pending: Map<string, WrittenList<unknown> | null> | undefined;
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    if (value instanceof WrittenList) {
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
 * written list (null: a nested object to ask in turn); undefined for any other value.
 */
export function unreadListsOf(value: object): ReadonlyMap<string, WrittenList<unknown> | null> | undefined {
  return unread.get(value);
}

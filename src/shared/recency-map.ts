interface Entry<V> {
  value: V;
  /** When it last went to the newest end: the count of entries put there so far. */
  placed: number;
}

/**
 * A Map in order of use, least recently used first, for the caches and limiters that let go of
 * their oldest keys.
 *
 * A key used goes back to the newest end only once it is in the older half. V8's Map leaves a
 * deleted entry in its key's hash chain until the whole table is rebuilt, which happens only when
 * the table is full: moving a key on every use (delete, set) made each later lookup of that key
 * walk the chain of its earlier moves, 42 µs a lookup in a map of 30,000 (the page memory's hot
 * page, or one address hammering a rate limiter). Moved at most once per half a map of newer
 * keys, a key used often stays in the newer half, where exact LRU would keep it too.
 */
export class RecencyMap<K, V> {
  private readonly map = new Map<K, Entry<V>>();
  /** Entries put at the newest end so far: an entry's distance from that end is at most this less its `placed`. */
  private placed = 0;

  get size(): number {
    return this.map.size;
  }

  /** The value, marked used. */
  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.use(key, entry);
    return entry.value;
  }

  /** The value, without marking it used. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets the value and marks the key used. */
  set(key: K, value: V): this {
    const entry = this.map.get(key);
    if (entry) {
      entry.value = value;
      this.use(key, entry);
    } else this.place(key, { value, placed: 0 });
    return this;
  }

  /** Changes the value of a key held, keeping its place; false when the key is not held. */
  update(key: K, value: V): boolean {
    const entry = this.map.get(key);
    if (entry) entry.value = value;
    return entry !== undefined;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  /** The least recently used key. */
  oldest(): K | undefined {
    for (const key of this.map.keys()) return key;
    return undefined;
  }

  /** Key and value, least recently used first (deleting the current key while walking is safe). */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, entry] of this.map) yield [key, entry.value];
  }

  private use(key: K, entry: Entry<V>): void {
    if (this.placed - entry.placed <= this.map.size >> 1) return;
    this.map.delete(key);
    this.place(key, entry);
  }

  private place(key: K, entry: Entry<V>): void {
    entry.placed = ++this.placed;
    this.map.set(key, entry);
  }
}

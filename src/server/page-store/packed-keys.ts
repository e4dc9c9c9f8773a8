/**
 * Many store keys held as one string and their offsets. The pre-render holds its share of the
 * site's addresses for as long as it runs: as an array, 158,000 of them (a 100,000-article site's
 * share in each of 2 processes) took 13 MB of the serving thread's heap, each address a string
 * of its own made of the joined parts it was built from ("/blogs?" + "category=5" + "&page=97"),
 * against 3 MB here. A key is made again when it is read (`at`), once per page rendered.
 */
export interface KeyList extends Iterable<string> {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Keys joined this many at a time while packing. */
const JOIN_SLICE = 4096;

export class PackedKeys implements KeyList {
  private readonly text: string;
  /** Where each key ends in `text`; key i starts where key i - 1 ends. */
  private readonly ends: Uint32Array;

  private constructor(text: string, ends: Uint32Array) {
    this.text = text;
    this.ends = ends;
  }

  /** Packs the keys `keep` accepts (all by default), in order: `keep` gets each key's place among all of them. */
  static of(keys: Iterable<string>, keep: (index: number) => boolean = () => true): PackedKeys {
    // Joined a slice at a time: one array of every key would be the very heap this saves.
    const joined: string[] = [];
    const slice: string[] = [];
    const ends: number[] = [];
    let length = 0;
    let index = 0;
    for (const key of keys) {
      if (!keep(index++)) continue;
      slice.push(key);
      ends.push((length += key.length));
      if (slice.length === JOIN_SLICE) joined.push(slice.splice(0).join(''));
    }
    joined.push(slice.join(''));
    return new PackedKeys(joined.join(''), Uint32Array.from(ends));
  }

  get length(): number {
    return this.ends.length;
  }

  /** The bytes the keys take here: their characters (one byte each for an address) and their offsets. */
  get packedBytes(): number {
    return this.text.length + this.ends.byteLength;
  }

  /**
   * Key `index` (from the end when negative), as `Array.prototype.at`. A long key is a view on the
   * packed text, which it keeps alive while it is held: the keys a pre-render handles are let go
   * once their page is stored.
   */
  at(index: number): string | undefined {
    const i = index < 0 ? index + this.ends.length : index;
    if (!Number.isInteger(i) || i < 0 || i >= this.ends.length) return undefined;
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.ends.length; i++) yield this.at(i)!;
  }
}

/**
 * A least-recently-used map bounded by the bytes its values take (as the caller counts them), whose
 * entries carry tags: `dropTag` removes every entry with a tag, as an invalidation names what
 * changed (a prompt, a space, a key), not each answer that came from it.
 */
export class ByteLru<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, { value: V; bytes: number; tags: readonly string[] }>()
  private readonly byTag = new Map<string, Set<string>>()
  private total = 0

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size
  }

  get bytes(): number {
    return this.total
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** Keeps `value` (replacing what `key` held), then drops the least recently used past the bound. */
  set(key: string, value: V, bytes: number, tags: readonly string[]): void {
    this.delete(key)
    if (bytes > this.maxBytes) return
    this.entries.set(key, { value, bytes, tags })
    this.total += bytes
    for (const tag of tags) {
      let keys = this.byTag.get(tag)
      if (!keys) {
        keys = new Set()
        this.byTag.set(tag, keys)
      }
      keys.add(key)
    }
    for (const [oldest] of this.entries) {
      if (this.total <= this.maxBytes) break
      this.delete(oldest)
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.total -= entry.bytes
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.byTag.delete(tag)
    }
  }

  dropTag(tag: string): void {
    for (const key of [...(this.byTag.get(tag) ?? [])]) this.delete(key)
  }

  clear(): void {
    this.entries.clear()
    this.byTag.clear()
    this.total = 0
  }
}

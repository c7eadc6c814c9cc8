import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type SubjectKey, subjectKeyOf } from '../../domain/plans.ts'
import { planSubjectOfSpace, type Space } from '../../domain/spaces.ts'
import type { Database, Db } from '../db/client.ts'
import type { Lsn } from '../db/read-routing.ts'
import { queryRows } from '../db/rows.ts'
import { ByteLru } from './byte-lru.ts'

/**
 * The runtime fetch's answers and the verified API keys (decision 0254), and the signed-in sessions
 * (decision 0286), kept in this process's memory. Every write that can change them notifies the
 * channel of its schema from its transaction (the triggers of migrations 0254, 0262 and 0272), so
 * every process drops what changed once that transaction commits.
 * What the cache may hold is only ever what the database answered after the last notification
 * this process heard:
 * - a load started before a notification arrived is not kept (the generation moved on);
 * - while the listening connection is lost, nothing is kept or served, and everything kept before
 *   is dropped (notifications sent meanwhile are missed); the same while this process does not hear
 *   its own fence in time, which it checks after HEARING_CHECK_MS without hearing anything (a
 *   connection can die without either end noticing);
 * - after a transaction of this process commits, its request waits until this process has heard
 *   that commit's notifications (a fence notification it sends after it, which PostgreSQL delivers
 *   in commit order), so a writer's next fetch never sees the answer from before its write; a
 *   request that may have written without a transaction of ours (better-auth's writes) waits the
 *   same way before it is answered (`heardOwnWrites`).
 */
/** The channel of the default schema; another schema's is named by `promptfolio_cache_channel`. */
export const CACHE_CHANNEL = 'promptfolio_cache'

/**
 * The notification channel of the schema the prompts table lives in (migration 0262), so
 * that installations or test runs sharing one PostgreSQL database in separate schemas do not hear
 * each other.
 */
async function channelOfSchema(db: Db): Promise<string> {
  const [row] = await queryRows<{ channel: string }>(
    db,
    // The schema of the table the triggers are on, as TG_TABLE_SCHEMA names it to them.
    sql`SELECT promptfolio_cache_channel(n.nspname::text) AS channel
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.oid = 'prompts'::regclass`,
  )
  return row?.channel ?? CACHE_CHANNEL
}

/** Bytes of answers kept per process: a prompt's answer is its JSON, a few KB for most. */
const PROMPT_BYTES = 64 * 1024 * 1024
/** Bytes of verified keys kept (a key's facts are about 300 bytes). */
const KEY_BYTES = 4 * 1024 * 1024
/**
 * Bytes of signed-in sessions kept. An entry (its token, the user, the session's facts, and the map
 * and tag entries that hold it) measured about 1.4 KB of heap and counts as 2 KB: 8,192 sessions,
 * about 11 MB.
 */
const SESSION_BYTES = 16 * 1024 * 1024
/** What a kept session counts against SESSION_BYTES. */
const SESSION_ENTRY_BYTES = 2048
/** How long a commit waits for its fence before dropping everything instead. */
const FENCE_TIMEOUT_MS = 2_000
/**
 * How long a process serves from memory without having heard anything on its channel before it
 * checks that it still hears (a fence of its own): a connection can die without either end
 * noticing (a NAT or a failover that drops it silently), and a process that hears nothing must
 * not go on serving what may have changed. At most this plus FENCE_TIMEOUT_MS of answers from a
 * process that stopped hearing.
 */
const HEARING_CHECK_MS = 5_000

/** A space as the notifications name it: its plan subject's key, `user:<id>` or `team:<id>`. */
export type SpaceKey = SubjectKey

export const spaceKeyOf = (space: Space): SpaceKey => subjectKeyOf(planSubjectOfSpace(space))

/** The state of the cache when a load began: what it read may be kept only if nothing changed since. */
export interface LoadTicket {
  readonly generation: number
  /**
   * With read replicas: what the load must read from to be kept, a replica that has replayed this
   * position of the primary, or the primary itself (see `RuntimeCache.floor`). Null: anywhere.
   */
  readonly floor: Lsn | 'primary' | null
}

export interface CachedPrompt {
  /** False: the space has no such prompt, version or label (the answer is a 404). */
  found: boolean
  /** The answer's JSON (empty when not found). */
  body: string
  etag: string
}

export class RuntimeCache {
  /** Serving and keeping: listening, and heard within HEARING_CHECK_MS (or the check under way). */
  private live = false
  /** The listener's view: its connection is up and LISTENing. */
  private listening = false
  /** Whether the last check of this process's own fence heard it in time. */
  private hearing = true
  /** `performance.now()` when this process last heard anything on its channel (a wall-clock jump is no silence). */
  private lastHeard = performance.now()
  private checkingHearing = false
  private generation = 0
  /** Loads under way: a commit with nothing kept and nothing loading has nothing to wait for. */
  private loading = 0
  private readonly prompts = new ByteLru<CachedPrompt>(PROMPT_BYTES)
  private readonly keys = new ByteLru<unknown>(KEY_BYTES)
  private readonly sessions = new ByteLru<unknown>(SESSION_BYTES)
  /** Tells this process's fences from other processes'. */
  private readonly token = randomUUID()
  private channel = CACHE_CHANNEL
  private fencesSent = 0
  private fencesHeard = 0
  private readonly fenceWaiters = new Map<number, () => void>()
  /** Resolves once the cache is listening (and so serving). */
  readonly ready: Promise<void>
  /**
   * With read replicas, a fill must come from data at least as new as the last notification heard:
   * a replica that has not replayed the change would put the old answer back after its drop. Each
   * notification sets the floor to the primary until the primary's write position (asked after
   * hearing, so past the notifying commit) is known; then a replica that has replayed it will do.
   */
  private floor: Lsn | 'primary' | null = null
  private askingPosition = false
  private askAgain = false

  constructor(
    private readonly db: Db,
    listen: Database['listen'],
    private readonly primaryPosition?: () => Promise<Lsn>,
    channel: Promise<string> = channelOfSchema(db),
  ) {
    this.ready = channel
      .then((name) => {
        this.channel = name
        return listen(name, (payload) => this.heard(payload), {
          lost: () => this.setListening(false),
          resumed: () => this.setListening(true),
        })
      })
      .then(
        () => this.setListening(true),
        // Without a listener the cache stays off: every fetch reads the database.
        () => {},
      )
  }

  /** Whether answers are served and kept (false until listening, and while the listener is lost). */
  get isLive(): boolean {
    return this.live
  }

  /**
   * Whether kept entries may be served now; starts a check that this process still hears its
   * channel when it has heard nothing for HEARING_CHECK_MS, or when the last check was not heard
   * (until one is). Every read of a kept entry asks it.
   */
  private serves(): boolean {
    if (
      this.listening &&
      !this.checkingHearing &&
      (!this.hearing || performance.now() - this.lastHeard > HEARING_CHECK_MS)
    ) {
      void this.checkHearing()
    }
    return this.live
  }

  /** Sends a fence of this process's own and stops serving (and keeping) unless it is heard in time. */
  private async checkHearing(): Promise<void> {
    this.checkingHearing = true
    try {
      this.setHearing(await this.fence())
    } finally {
      this.checkingHearing = false
    }
  }

  /** Entries kept (answers, keys and sessions), for tests and the benchmark's report. */
  get entries(): number {
    return this.prompts.size + this.keys.size + this.sessions.size
  }

  begin(): LoadTicket {
    this.loading += 1
    if (this.floor === 'primary' && !this.askingPosition) this.raiseFloor()
    return { generation: this.generation, floor: this.floor }
  }

  private raiseFloor(): void {
    if (!this.primaryPosition) return
    this.floor = 'primary'
    if (this.askingPosition) {
      this.askAgain = true
      return
    }
    this.askingPosition = true
    void (async () => {
      do {
        this.askAgain = false
        try {
          const position = await this.primaryPosition!()
          if (!this.askAgain) this.floor = position
        } catch {
          // Unknown: fills read the primary until a later load asks again (`begin`).
        }
      } while (this.askAgain)
      this.askingPosition = false
    })()
  }

  end(_ticket: LoadTicket): void {
    this.loading -= 1
  }

  private keeps(ticket: LoadTicket): boolean {
    return this.live && ticket.generation === this.generation
  }

  private answeredFromMemory = 0

  /**
   * Requests answered with a kept answer, for tests: each counted once, by its answerer
   * (`answered`), and not by `prompt`, since the kept-fetch lane may look an answer up and then
   * leave the request to the route, which looks it up again.
   */
  get hits(): number {
    return this.answeredFromMemory
  }

  answered(): void {
    this.answeredFromMemory += 1
  }

  prompt(key: string): CachedPrompt | undefined {
    return this.serves() ? this.prompts.get(key) : undefined
  }

  /**
   * Keeps a fetched answer under `key`, tagged with its prompt and space; `dependsOnSpace` when it
   * includes other prompts of the space (any change there may change it).
   */
  keepPrompt(
    ticket: LoadTicket,
    key: string,
    at: { space: SpaceKey; name: string; dependsOnSpace: boolean },
    answer: CachedPrompt,
  ): void {
    if (!this.keeps(ticket)) return
    const tags = [`p|${at.space}|${at.name}`, `s|${at.space}`]
    if (at.dependsOnSpace) tags.push(`r|${at.space}`)
    this.prompts.set(key, answer, 2 * (key.length + answer.body.length + answer.etag.length) + 200, tags)
  }

  key<K>(secretHash: string): K | undefined {
    return this.serves() ? (this.keys.get(secretHash) as K | undefined) : undefined
  }

  keepKey(
    ticket: LoadTicket,
    secretHash: string,
    at: { keyId: string; space: SpaceKey },
    facts: object,
  ): void {
    if (!this.keeps(ticket)) return
    this.keys.set(secretHash, facts, 600, [`k|${at.keyId}`, `a|${at.space}`])
  }

  /** A signed-in session kept by its token (`keepSession`), while the cache is live. */
  session<S>(token: string): S | undefined {
    return this.serves() ? (this.sessions.get(token) as S | undefined) : undefined
  }

  /** Keeps what a session token was read as, until its user's row or one of their sessions changes. */
  keepSession(ticket: LoadTicket, token: string, userId: string, facts: object): void {
    if (!this.keeps(ticket)) return
    this.sessions.set(token, facts, SESSION_ENTRY_BYTES, [`u|${userId}`])
  }

  private heard(payload: string): void {
    this.lastHeard = performance.now()
    const kind = payload.slice(0, 2)
    const rest = payload.slice(2)
    if (kind === 'f|') {
      this.heardFence(rest)
      return
    }
    this.generation += 1
    this.raiseFloor()
    if (kind === 'p|') {
      this.prompts.dropTag(payload)
      this.prompts.dropTag(`r|${rest.slice(0, rest.indexOf('|'))}`)
    } else if (kind === 's|') {
      this.prompts.dropTag(payload)
    } else if (kind === 'k|' || kind === 'a|') {
      this.keys.dropTag(payload)
    } else if (kind === 'u|') {
      this.sessions.dropTag(payload)
    } else if (kind === 'U|') {
      this.sessions.clear()
    } else {
      this.dropAll()
    }
  }

  private heardFence(rest: string): void {
    const [token, count] = rest.split('|')
    if (token !== this.token) return
    this.fencesHeard = Math.max(this.fencesHeard, Number(count))
    for (const [n, resolve] of this.fenceWaiters) {
      if (n <= this.fencesHeard) {
        this.fenceWaiters.delete(n)
        resolve()
      }
    }
  }

  private dropAll(): void {
    this.generation += 1
    this.raiseFloor()
    this.prompts.clear()
    this.keys.clear()
    this.sessions.clear()
  }

  private setListening(listening: boolean): void {
    this.listening = listening
    this.setLive()
  }

  private setHearing(hearing: boolean): void {
    if (hearing === this.hearing) return
    this.hearing = hearing
    this.setLive()
  }

  private setLive(): void {
    // Both ways everything goes: on a loss it may go stale unheard; on resuming, anything kept in
    // between (nothing should be) is dropped too.
    this.dropAll()
    this.live = this.listening && this.hearing
    if (!this.live) this.releaseFences()
  }

  private releaseFences(): void {
    for (const resolve of this.fenceWaiters.values()) resolve()
    this.fenceWaiters.clear()
  }

  /**
   * Called after each transaction of this process commits: waits until this process has heard
   * every notification committed before now (so the commit's own), or drops everything.
   */
  async afterCommit(): Promise<void> {
    if (!this.live || (this.entries === 0 && this.loading === 0)) return
    await this.heardAllCommitted()
  }

  /**
   * Waits until this process has heard every notification committed before now, or stops serving
   * (and drops everything) until a later check is heard. A commit made while the cache was empty
   * skips it (`afterCommit`), so its notification may still be on its way: the next load then is
   * not kept, which costs a miss.
   */
  async heardAllCommitted(): Promise<void> {
    if (!this.live) return
    // Not heard in time: this process may have stopped hearing, so it stops serving until it does.
    if (!(await this.fence())) this.setHearing(false)
  }

  /** Sends a fence notification and answers whether this process heard it within FENCE_TIMEOUT_MS. */
  private async fence(): Promise<boolean> {
    const n = ++this.fencesSent
    const heard = new Promise<void>((resolve) => this.fenceWaiters.set(n, resolve))
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), FENCE_TIMEOUT_MS)
    })
    try {
      await this.db.execute(sql`SELECT pg_notify(${this.channel}, ${`f|${this.token}|${n}`})`)
      return (await Promise.race([heard, timedOut])) !== 'timeout'
    } catch {
      return false
    } finally {
      clearTimeout(timer)
      this.fenceWaiters.delete(n)
    }
  }
}

const caches = new WeakMap<Db, RuntimeCache>()

/** The runtime cache of a database's processes, when one was attached (`attachRuntimeCache`). */
export function runtimeCacheOf(db: Db): RuntimeCache | undefined {
  return caches.get(db)
}

/**
 * The database's runtime cache, made on first use: it starts listening (serving once it does), and
 * every transaction run through `database.db.transaction` waits for its fence after committing.
 */
export function attachRuntimeCache(database: Database): RuntimeCache {
  const { db } = database
  const existing = caches.get(db)
  if (existing) return existing
  const cache = new RuntimeCache(db, database.listen, database.replicas?.primaryPosition)
  caches.set(db, cache)
  const transaction = db.transaction.bind(db)
  db.transaction = (async (...args: Parameters<Db['transaction']>) => {
    const result = await transaction(...args)
    await cache.afterCommit()
    return result
  }) as Db['transaction']
  return cache
}

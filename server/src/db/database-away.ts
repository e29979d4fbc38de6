// PostgreSQL going away under a running server: restarted, failed over to a replica, or its host
// stalled. The server stays up: what needs the database is refused with 503 until it is back
// (Retry-After), the health check says so, and everything goes on once it answers again. Nothing
// is kept in memory meanwhile: what was under way either committed or rolled back, and the work
// that needs doing (a job, an order's transfer) is found again in the database.

/** What a caller is told while the database cannot be reached. */
export const DATABASE_AWAY = 'The database cannot be reached right now: try again in a moment'
/** When a caller refused for it may ask again: about when the watch below looks again. */
export const DATABASE_AWAY_RETRY_AFTER_SECONDS = 5

/**
 * The database could not be reached: a query's connection failed (the driver's error its cause),
 * or a request came while the database was known to be away (no cause: nothing was tried).
 */
export class DatabaseAwayError extends Error {
  constructor(cause?: unknown) {
    super(DATABASE_AWAY, cause === undefined ? {} : { cause })
    this.name = 'DatabaseAwayError'
  }
}

/** The error as the database layer throws it: a DatabaseAwayError when it says the database is away. */
export const markedIfAway = (error: unknown): unknown =>
  isDatabaseUnreachable(error) ? new DatabaseAwayError(error) : error

/** Node's own words for a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * node-postgres's own messages for a connection lost, refused or never made in time (pg's
 * client.js and pg-pool's index.js), which carry no code.
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Query read timeout$/,
]

/**
 * Whether a database driver's error says the database could not be reached, rather than that it
 * refused a query:
 * a socket's failure, node-postgres's lost connection, or PostgreSQL's own "connection exception"
 * (SQLSTATE class 08) and "operator intervention" when it shuts down, crashed, or is starting
 * (57P01, 57P02, 57P03; PostgreSQL's Appendix A, "PostgreSQL Error Codes").
 */
function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || code.startsWith('08')) return true
    if (['57P01', '57P02', '57P03'].includes(code)) return true
  }
  return DRIVER_MESSAGES.some((message) => message.test(error.message))
}

/** What a log may say of a connection's error: its code and words, never the connection's URL. */
export function loggableDatabaseError(error: unknown) {
  // pg-boss tells some failures as plain objects, not Errors.
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return { code, message: typeof message === 'string' ? message : String(error) }
}

export interface DatabaseWatch {
  /** Whether the database did not answer the last look. */
  away(): boolean
  /** Looks at once, unless looking already or known away: a connection just failed. */
  lookNow(): void
  stop(): void
}

export interface WatchOptions {
  /** One look at the database, on a connection of its own: resolves if it answered. */
  probe: (timeoutMs: number) => Promise<void>
  /** How often it looks while the database answers; while away, every second. */
  intervalMs: number
  /** How long a look waits for an answer: a frozen host never refuses, it just says nothing. */
  timeoutMs: number
  /** Told when the database goes away (with the look's error) and when it is back. */
  onChange: (away: boolean, cause?: unknown) => void
}

const AWAY_INTERVAL_MS = 1_000

/**
 * Looks at the database again and again, each look a fresh connection with a deadline: a pooled
 * one would wait forever on a frozen host, and hold its slot meanwhile. A request that finds the
 * database away is refused at once, rather than held until its own query gives up.
 */
export function watchDatabase(options: WatchOptions): DatabaseWatch {
  let away = false
  let looking = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const lookIn = (ms: number) => {
    timer = setTimeout(() => void look(), ms)
    timer.unref()
  }
  const look = async () => {
    looking = true
    clearTimeout(timer)
    let cause: unknown
    const answered = await options.probe(options.timeoutMs).then(
      () => true,
      (error: unknown) => {
        cause = error
        return false
      },
    )
    looking = false
    if (stopped) return
    if (answered === away) {
      away = !answered
      options.onChange(away, cause)
    }
    lookIn(away ? AWAY_INTERVAL_MS : options.intervalMs)
  }
  lookIn(options.intervalMs)
  return {
    away: () => away,
    lookNow() {
      if (!away && !looking && !stopped) void look()
    },
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}

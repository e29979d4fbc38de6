import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll } from 'vitest'

// The e2e project's setup file: one e2e file at a time in this checkout, each with its own
// server, console and Chromium, whose waits are a person's (10 s for a page). The whole suite's
// order (tests/support/longest-first.ts) already starts them one after another beside the other
// files; this holds it when the estimates are off, or when only e2e files run.

const root = resolve(import.meta.dirname, '../..')
const lock = join(
  tmpdir(),
  `tandem-e2e-${createHash('sha1').update(root).digest('hex').slice(0, 12)}`,
)

/** Whether the file holding the lock was killed without letting it go. */
function holderGone(): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
  } catch {
    return false // let go meanwhile: try again
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

beforeAll(async () => {
  for (;;) {
    // Made whole, then renamed into place: a lock is never seen without its holder's pid.
    const mine = mkdtempSync(`${lock}-`)
    writeFileSync(join(mine, 'pid'), String(process.pid))
    try {
      renameSync(mine, lock)
      return
    } catch {
      rmSync(mine, { recursive: true, force: true })
    }
    if (holderGone()) rmSync(lock, { recursive: true, force: true })
    else await sleep(200)
  }
}, 900_000)

afterAll(() => rmSync(lock, { recursive: true, force: true }))

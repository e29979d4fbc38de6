import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// The order the whole suite's files start in: longest first, across every project, so that the
// workers finish together, and the e2e files (each its own server, console and Chromium, timed by
// what a person would wait) one after another beside the rest, not two at once. Vitest's own
// order runs project after project (by name), each file by its last duration or, on a fresh
// clone, by its size; the crash files of server-postgres, last by name and small by size, then
// started near the end and held the run up by minutes.
//
// A file's duration is Vitest's record of its last run when this checkout has one, else its
// figure below (from CI's log, `vitest run` on a fresh clone, 2026-11-29 at 5774492: the files of
// 15 s or more; a file made shorter since, by the share its own runs before and after saved), else
// its project's typical file.

/** Seconds, by "project path". Keep the slowest here when a run shows them (CONTRIBUTING, CI). */
const SLOW_FILES: Record<string, number> = {
  'server-postgres tests/server/refund-crash.test.ts': 124,
  'server-postgres tests/server/crash-harness.test.ts': 95,
  'server tests/server/crash-harness.test.ts': 85,
  'server-postgres tests/server/crash-harness-takeover.test.ts': 76,
  'server tests/server/crash-harness-takeover.test.ts': 68,
  'server-postgres tests/server/webhook-crash.test.ts': 67,
  'server tests/server/refund-crash.test.ts': 67,
  'server-postgres tests/server/catalog-listings.test.ts': 61,
  'server-postgres tests/server/shopify-webhooks.test.ts': 57,
  'benchmarks tests/benchmarks/server.test.ts': 52,
  'server-postgres tests/server/transfers-process.test.ts': 47,
  'benchmarks tests/benchmarks/pipeline.test.ts': 41,
  'server-postgres tests/server/shopify-adapter.test.ts': 39,
  'server-postgres tests/server/commissions.test.ts': 39,
  'e2e tests/e2e/accessibility.test.ts': 39,
  'server-postgres tests/server/database-away.test.ts': 38,
  'server tests/server/catalog-listings.test.ts': 36,
  'server tests/server/shopify-webhooks.test.ts': 32,
  'benchmarks tests/benchmarks/bench-ui.test.ts': 30,
  'server tests/server/shopify-adapter.test.ts': 26,
  'e2e tests/e2e/automatic-transfer.test.ts': 26,
  'server-postgres tests/server/transfers-catalogue.test.ts': 25,
  'server-postgres tests/server/shipping.test.ts': 25,
  'e2e tests/e2e/money-trail.test.ts': 25,
  'server-postgres tests/server/automatic-transfers.test.ts': 23,
  'server-postgres tests/server/catalog-crash.test.ts': 22,
  'server-postgres tests/server/transfers-order-state.test.ts': 21,
  'e2e tests/e2e/price-exception.test.ts': 21,
  'server-postgres tests/server/shopify-connections.test.ts': 19,
  'server tests/server/webhook-crash.test.ts': 19,
  'server-postgres tests/server/transfers-retry.test.ts': 17,
  'server-postgres tests/server/brand-order-refunds.test.ts': 17,
  'server-postgres tests/server/automatic-transfers-attacks.test.ts': 17,
  'e2e tests/e2e/rates-and-configs.test.ts': 17,
  'e2e tests/e2e/order-transfer.test.ts': 17,
  'e2e tests/e2e/jobs.test.ts': 17,
  'server-postgres tests/server/transfers-attention.test.ts': 16,
  'server tests/server/transfers-process.test.ts': 16,
  'benchmarks tests/benchmarks/bench-sync.test.ts': 16,
  'e2e tests/e2e/stores.test.ts': 15,
}

/** A typical file's seconds in each project (the median of that log); benchmarks: their own. */
const TYPICAL_FILE: Record<string, number> = {
  benchmarks: 30,
  e2e: 9,
  'server-postgres': 4.7,
  server: 1.5,
  renderer: 4.3,
  main: 0.1,
}

interface Estimated {
  spec: TestSpecification
  seconds: number
  browser: boolean
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order first (by last duration, else size): it breaks the ties below.
    const ordered = await super.sort(files)
    const seconds = (spec: TestSpecification) => {
      const last = this.ctx.cache.getTestSpecificationResult(spec)?.duration
      if (last !== undefined) return last / 1000
      const path = relative(spec.project.config.root, spec.moduleId)
      return SLOW_FILES[`${spec.project.name} ${path}`] ?? TYPICAL_FILE[spec.project.name] ?? 1
    }
    const longestFirst = ordered
      .map((spec, index) => ({ spec, index, seconds: seconds(spec) }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map(({ spec, seconds }) => ({ spec, seconds, browser: spec.project.name === 'e2e' }))
    return startOrder(longestFirst, this.ctx.config.maxWorkers)
  }
}

/**
 * The order in which `workers` workers would start the files, each taking the longest left when it
 * is free, but an e2e file only when no other e2e file would be running (else the longest other).
 * Vitest starts the files in this order as workers free up, so the estimates need only be rough.
 */
function startOrder(files: Estimated[], workers: number): TestSpecification[] {
  const freeAt = Array<number>(workers).fill(0)
  let browserFreeAt = 0
  const left = [...files]
  const order: TestSpecification[] = []
  while (left.length > 0) {
    const worker = freeAt.indexOf(Math.min(...freeAt))
    const now = freeAt[worker]!
    // Only e2e files left, one of them running: the next starts anyway, as Vitest would.
    const next = Math.max(
      0,
      left.findIndex((file) => !file.browser || browserFreeAt <= now),
    )
    const [file] = left.splice(next, 1)
    order.push(file!.spec)
    freeAt[worker] = now + file!.seconds
    if (file!.browser) browserFreeAt = freeAt[worker]!
  }
  return order
}

import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Db } from '../db/connect'
import type { SandboxFaultsTable } from '../db/schema'

// Faults a test scripts into the sandbox payment provider (the Shopify emulator scripts its own):
// fail the next N calls of an operation, delay them, or do the work and lose the answer. They live
// in the database beside the sandbox's state, so a test reaches a server running in another
// process (the crash harness).

export type SandboxOperation = 'connectedAccount' | 'createTransfer' | 'findTransfers'

export interface SandboxFault {
  operation: SandboxOperation
  /**
   * `fail`: refuse before doing anything; `delay`: wait, then do it; `drop_answer`: do it, then
   * lose the answer (the caller cannot tell whether it was done).
   */
  mode: SandboxFaultsTable['mode']
  /** How many calls it applies to; 1 unless given. */
  times?: number
  /** Only calls for this destination account. */
  target?: string
  /** The provider's refusal, for `fail`. */
  message?: string
  /** For `delay`. */
  delayMs?: number
}

let scripted = 0

export const LOST_ANSWER = 'The connection was lost before the answer arrived'

export async function scriptSandboxFault(db: Db, fault: SandboxFault): Promise<void> {
  await db
    .insertInto('sandbox_faults')
    .values({
      id: randomBytes(8).toString('hex'),
      operation: fault.operation,
      target: fault.target ?? null,
      mode: fault.mode,
      message: fault.message ?? null,
      delay_ms: fault.delayMs ?? 0,
      remaining: fault.times ?? 1,
      // Faults apply in the order they were scripted, also within one millisecond.
      created_at: `${new Date().toISOString()}#${String(++scripted).padStart(9, '0')}`,
    })
    .execute()
}

/**
 * Runs one call of the sandbox under the fault scripted for it, if any. `refusal` makes the
 * error the provider would answer.
 */
export async function underScriptedFault<T>(
  db: Db,
  operation: SandboxOperation,
  target: string,
  run: () => Promise<T>,
  refusal: (message: string) => Error,
): Promise<T> {
  const fault = await takeFault(db, operation, target)
  if (fault?.mode === 'fail') throw refusal(fault.message ?? `Scripted failure of ${operation}`)
  if (fault?.mode === 'delay') await sleep(fault.delay_ms)
  const result = await run()
  if (fault?.mode === 'drop_answer') throw refusal(fault.message ?? LOST_ANSWER)
  return result
}

/** Consumes one use of the oldest fault that applies; concurrent calls never share a use. */
async function takeFault(db: Db, operation: SandboxOperation, target: string) {
  for (;;) {
    const fault = await db
      .selectFrom('sandbox_faults')
      .select(['id', 'mode', 'message', 'delay_ms'])
      .where('operation', '=', operation)
      .where('remaining', '>', 0)
      .where((eb) => eb.or([eb('target', 'is', null), eb('target', '=', target)]))
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst()
    if (!fault) return null
    const taken = await db
      .updateTable('sandbox_faults')
      .set((eb) => ({ remaining: eb('remaining', '-', 1) }))
      .where('id', '=', fault.id)
      .where('remaining', '>', 0)
      .executeTakeFirst()
    if (taken.numUpdatedRows > 0n) return fault
  }
}

import type { TransferPolicy } from '@shared/contract'
import type { RouteDeps } from '../deps'
import {
  findTransferPolicy,
  lockTransferPolicy,
  writeTransferPolicy,
} from '../repositories/transfer-policy'
import { auditedChange, type Actor } from './audited-change'

// The marketplace's transfer policy: MANUAL, or AUTOMATIC after a hold counted from payment. The
// contract has already refused a mode or hold out of bounds, naming the field.

type Deps = Pick<RouteDeps, 'db' | 'now'>

export const transferPolicy = (deps: Deps): Promise<TransferPolicy> => findTransferPolicy(deps.db)

export function setTransferPolicy(
  deps: Deps,
  actor: Actor,
  input: Pick<TransferPolicy, 'mode' | 'holdMinutes'>,
): Promise<TransferPolicy> {
  return auditedChange(deps, actor, async (trx) => {
    const before = await lockTransferPolicy(trx)
    // Turned on now, it applies to orders paid from now on; a change of hold alone keeps the
    // moment it was turned on, so the orders already waiting stay automatic.
    const automaticSince =
      input.mode === 'MANUAL'
        ? null
        : before.mode === 'AUTOMATIC'
          ? before.automaticSince
          : deps.now().toISOString()
    const after = { ...input, automaticSince }
    await writeTransferPolicy(trx, after)
    return {
      result: after,
      audit: { action: 'transfer-policy.set', target: 'marketplace', details: { before, after } },
    }
  })
}

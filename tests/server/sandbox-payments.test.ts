import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NORTHWIND } from '../support/sandbox-figures'
import {
  PaymentsError,
  type TransferRequest,
} from '../../server/src/adapters/payments/payments-port'
import {
  createSandboxPayments,
  IDEMPOTENCY_REUSE,
} from '../../server/src/adapters/payments/sandbox-payments'
import { scriptSandboxFault } from '../../server/src/adapters/sandbox-faults'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The sandbox payment provider on its own, over the seeded database (until the Stripe emulator
// replaces it).

let server: ServerUnderTest

beforeEach(async () => {
  server = await startServerUnderTest()
})
afterEach(async () => {
  await server.close()
})

describe('sandbox payments', () => {
  const request: TransferRequest = {
    amountMinor: 10200,
    currency: 'USD',
    destinationAccountId: 'acct_sandbox_northwind_apparel',
    idempotencyKey: 'transfer:1001:northwind-apparel.myshopify.com',
    transferGroup: 'tandem-order-1001',
    description: 'test',
  }
  const transferCount = async () =>
    (await server.db.selectFrom('payment_transfers').select('id').execute()).length

  it('knows the connected account of each brand', async () => {
    const payments = createSandboxPayments(server.db)
    expect(await payments.connectedAccount(NORTHWIND)).toEqual({
      accountId: 'acct_sandbox_northwind_apparel',
      email: 'payouts@northwind-apparel.example',
    })
    expect(await payments.connectedAccount('maya-makes.myshopify.com')).toBeNull()
  })

  it('answers the same transfer for the same idempotency key, even concurrently', async () => {
    const payments = createSandboxPayments(server.db)
    const results = await Promise.all(
      Array.from({ length: 5 }, () => payments.createTransfer(request)),
    )
    expect(new Set(results.map((result) => result.id)).size).toBe(1)
    expect(await payments.createTransfer(request)).toEqual(results[0])
    expect(await transferCount()).toBe(1)
    const other = await payments.createTransfer({ ...request, idempotencyKey: 'another' })
    expect(other.id).not.toBe(results[0]?.id)
    expect(await transferCount()).toBe(2)
  })

  it('refuses a key reused with other parameters, and an unknown destination', async () => {
    const payments = createSandboxPayments(server.db)
    await payments.createTransfer(request)
    await expect(payments.createTransfer({ ...request, amountMinor: 1 })).rejects.toBeInstanceOf(
      PaymentsError,
    )
    await expect(
      payments.createTransfer({ ...request, idempotencyKey: 'k', destinationAccountId: 'acct_x' }),
    ).rejects.toThrow(new PaymentsError('No such destination: acct_x'))
    expect(await transferCount()).toBe(1)
  })

  it('forgets a key after 24 hours of its clock, and finds transfers by group and destination', async () => {
    let clock = new Date('2026-11-23T10:00:00Z')
    const payments = createSandboxPayments(server.db, { now: () => clock })
    const first = await payments.createTransfer(request)
    clock = new Date('2026-11-24T09:59:59Z')
    expect(await payments.createTransfer(request)).toEqual(first)
    await expect(payments.createTransfer({ ...request, amountMinor: 1 })).rejects.toThrow(
      new PaymentsError(IDEMPOTENCY_REUSE),
    )
    clock = new Date('2026-11-24T10:00:01Z')
    const second = await payments.createTransfer(request)
    expect(second.id).not.toBe(first.id)
    expect(await transferCount()).toBe(2)
    expect(
      await payments.findTransfers({
        transferGroup: request.transferGroup,
        destinationAccountId: request.destinationAccountId,
      }),
    ).toEqual([
      { id: first.id, amountMinor: 10200 },
      { id: second.id, amountMinor: 10200 },
    ])
    expect(
      await payments.findTransfers({
        transferGroup: 'tandem-order-1004',
        destinationAccountId: request.destinationAccountId,
      }),
    ).toEqual([])
  })

  it('fails the transfers of one destination a test scripts to fail', async () => {
    await scriptSandboxFault(server.db, {
      operation: 'createTransfer',
      mode: 'fail',
      message: 'Insufficient funds',
      target: 'acct_sandbox_northwind_apparel',
    })
    const payments = createSandboxPayments(server.db)
    await expect(
      payments.createTransfer({
        ...request,
        destinationAccountId: 'acct_sandbox_lumen_botanicals',
        idempotencyKey: 'lumen',
      }),
    ).resolves.toEqual({ id: expect.stringMatching(/^tr_sandbox_/) })
    await expect(payments.createTransfer(request)).rejects.toThrow(
      new PaymentsError('Insufficient funds'),
    )
    await expect(payments.createTransfer(request)).resolves.toEqual({
      id: expect.stringMatching(/^tr_sandbox_/),
    })
    expect(await transferCount()).toBe(2)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { TransferPolicy } from '../../src/shared/contract'
import { automaticTransferOf } from '../../server/src/domain/transfer-policy'
import { startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The marketplace's transfer policy (GET /admin-transfer-policy, POST /admin-set-transfer-policy)
// and the rule the automatic processing asks of each paid order: whether it transfers by itself,
// and when its hold ends.

const ADMIN = 'claim-admin@tandem.test'

let server: ServerUnderTest | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A server whose clock reads `clock.now`, which a test moves. */
const start = async () => {
  const clock = { now: new Date('2026-11-27T09:00:00.000Z') }
  server = await startServerUnderTest({ seed: false, now: () => clock.now })
  return { server, clock }
}

const readPolicy = (s: ServerUnderTest, headers: Record<string, string> = s.asAdmin) =>
  s.app.inject({ url: '/admin-transfer-policy', headers })

const setPolicy = (s: ServerUnderTest, payload: unknown, headers = s.asAdmin) =>
  s.app.inject({
    method: 'POST',
    url: '/admin-set-transfer-policy',
    headers,
    payload: payload as Record<string, unknown>,
  })

const auditEntries = async (s: ServerUnderTest) =>
  (await s.app.inject({ url: '/admin-audit-log', headers: s.asAdmin })).json().entries

describe('GET /admin-transfer-policy', () => {
  it('answers AUTOMATIC with a 10-minute hold, in force since the server was upgraded', async () => {
    const upgradeStarted = Date.now()
    const { server } = await start()
    const upgradeDone = Date.now()

    const response = await readPolicy(server)
    expect(response.statusCode).toBe(200)
    const policy = response.json() as TransferPolicy
    expect(policy).toEqual({
      mode: 'AUTOMATIC',
      holdMinutes: 10,
      automaticSince: expect.any(String),
    })
    // Orders paid before the upgrade stay with the administrator.
    const since = Date.parse(policy.automaticSince!)
    expect(since).toBeGreaterThanOrEqual(upgradeStarted)
    expect(since).toBeLessThanOrEqual(upgradeDone)
  })
})

describe('POST /admin-set-transfer-policy', () => {
  it('sets MANUAL, then AUTOMATIC again from that moment, and reads each back', async () => {
    const { server, clock } = await start()

    const manual = await setPolicy(server, { mode: 'MANUAL', holdMinutes: 30 })
    expect(manual.statusCode).toBe(200)
    const expectedManual = { mode: 'MANUAL', holdMinutes: 30, automaticSince: null }
    expect(manual.json()).toEqual(expectedManual)
    expect((await readPolicy(server)).json()).toEqual(expectedManual)

    clock.now = new Date('2026-11-27T10:00:00.000Z')
    const automatic = await setPolicy(server, { mode: 'AUTOMATIC', holdMinutes: 60 })
    const expectedAutomatic = {
      mode: 'AUTOMATIC',
      holdMinutes: 60,
      automaticSince: '2026-11-27T10:00:00.000Z',
    }
    expect(automatic.json()).toEqual(expectedAutomatic)
    expect((await readPolicy(server)).json()).toEqual(expectedAutomatic)
  })

  it('keeps the moment it turned AUTOMATIC when only the hold changes', async () => {
    const { server, clock } = await start()
    await setPolicy(server, { mode: 'MANUAL', holdMinutes: 10 })
    await setPolicy(server, { mode: 'AUTOMATIC', holdMinutes: 10 })

    clock.now = new Date('2026-11-28T09:00:00.000Z')
    const response = await setPolicy(server, { mode: 'AUTOMATIC', holdMinutes: 0 })
    expect(response.json()).toEqual({
      mode: 'AUTOMATIC',
      holdMinutes: 0,
      automaticSince: '2026-11-27T09:00:00.000Z',
    })
  })

  it('records who changed it, and the policy before and after', async () => {
    const { server } = await start()
    const { automaticSince } = (await readPolicy(server)).json() as TransferPolicy
    await setPolicy(server, { mode: 'MANUAL', holdMinutes: 45 })

    expect(await auditEntries(server)).toEqual([
      {
        at: '2026-11-27T09:00:00.000Z',
        actorEmail: ADMIN,
        action: 'transfer-policy.set',
        target: 'marketplace',
        details: {
          before: { mode: 'AUTOMATIC', holdMinutes: 10, automaticSince },
          after: { mode: 'MANUAL', holdMinutes: 45, automaticSince: null },
        },
      },
    ])
  })

  it('refuses each bad input with what to fix, and changes nothing', async () => {
    const { server } = await start()
    const policyBefore = (await readPolicy(server)).json()
    const cases = [
      [{ mode: 'SOMETIMES', holdMinutes: 10 }, 'mode must be one of MANUAL, AUTOMATIC'],
      [{ holdMinutes: 10 }, 'mode is required'],
      [{ mode: 'AUTOMATIC' }, 'holdMinutes is required'],
      // Every value that is not a hold, in the words the console's field says under it
      // (tests/renderer/transfer-policy.test.tsx).
      ...['10', '10,5', 1.5, 2.5, -1, 10081].map(
        (holdMinutes) =>
          [
            { mode: 'AUTOMATIC', holdMinutes },
            'holdMinutes must be a whole number of minutes from 0 to 10080 (7 days)',
          ] as const,
      ),
      [{ mode: 'AUTOMATIC', holdMinutes: 10, since: 'now' }, 'Unknown field since'],
    ] as const
    for (const [payload, message] of cases) {
      const response = await setPolicy(server, payload)
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({
        payload,
        status: 400,
        body: { error: 'invalid_input', message },
      })
    }
    expect((await readPolicy(server)).json()).toEqual(policyBefore)
    expect(await auditEntries(server)).toEqual([])
  })

  it('refuses a signed-in user who is not an administrator, both to read and to change', async () => {
    const { server } = await start()
    const notAdmin = { authorization: `Bearer ${server.tokens.notAdmin}` }
    const policyBefore = (await readPolicy(server)).json()

    expect((await readPolicy(server, notAdmin)).statusCode).toBe(403)
    const refused = await setPolicy(server, { mode: 'MANUAL', holdMinutes: 10 }, notAdmin)
    expect(refused.statusCode).toBe(403)
    expect((await readPolicy(server)).json()).toEqual(policyBefore)
    expect(await auditEntries(server)).toEqual([])
  })
})

describe('automaticTransferOf: whether an order transfers by itself, and when', () => {
  const automatic: TransferPolicy = {
    mode: 'AUTOMATIC',
    holdMinutes: 10,
    automaticSince: '2026-11-27T09:00:00.000Z',
  }
  const at = (iso: string) => new Date(iso)
  const paid = (iso: string) => ({ createdAt: at(iso), paidAt: at(iso) })

  it('holds an order made once the policy was AUTOMATIC for the hold, from its payment', () => {
    expect(automaticTransferOf(automatic, paid('2026-11-27T09:00:00.000Z'))).toEqual({
      automatic: true,
      holdEndsAt: at('2026-11-27T09:10:00.000Z'),
    })
    expect(automaticTransferOf(automatic, paid('2026-11-30T23:55:00.000Z'))).toEqual({
      automatic: true,
      holdEndsAt: at('2026-12-01T00:05:00.000Z'),
    })
  })

  it('counts the hold from when the payment was learnt, not from when the order was made', () => {
    const times = {
      createdAt: at('2026-11-27T10:00:00.000Z'),
      paidAt: at('2026-11-28T10:00:00.000Z'),
    }
    expect(automaticTransferOf(automatic, times)).toEqual({
      automatic: true,
      holdEndsAt: at('2026-11-28T10:10:00.000Z'),
    })
  })

  it("counts the hold's minutes in the length the server gives one (end-to-end tests' shorter minute)", () => {
    expect(automaticTransferOf(automatic, paid('2026-11-27T09:00:00.000Z'), 20_000)).toEqual({
      automatic: true,
      holdEndsAt: at('2026-11-27T09:03:20.000Z'),
    })
  })

  it('transfers at once with a hold of 0', () => {
    const times = paid('2026-11-27T12:00:00.000Z')
    expect(automaticTransferOf({ ...automatic, holdMinutes: 0 }, times)).toEqual({
      automatic: true,
      holdEndsAt: times.paidAt,
    })
  })

  it('leaves to an administrator an order made before the policy turned AUTOMATIC, however late its payment is told', () => {
    expect(automaticTransferOf(automatic, paid('2026-11-27T08:59:59.999Z'))).toEqual({
      automatic: false,
    })
    const toldLate = {
      createdAt: at('2026-11-27T08:00:00.000Z'),
      paidAt: at('2026-11-29T08:00:00.000Z'),
    }
    expect(automaticTransferOf(automatic, toldLate)).toEqual({ automatic: false })
  })

  it('leaves every order to an administrator while the policy is MANUAL', () => {
    const manual: TransferPolicy = { mode: 'MANUAL', holdMinutes: 10, automaticSince: null }
    expect(automaticTransferOf(manual, paid('2026-11-27T12:00:00.000Z'))).toEqual({
      automatic: false,
    })
  })
})

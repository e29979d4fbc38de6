import { describe, expect, it } from 'vitest'
import { TRANSFER_ERRORS } from '@shared/contract'
import { CommerceError } from '../../server/src/adapters/commerce/commerce-port'
import { DatabaseBusyError } from '../../server/src/db/connect'
import {
  attention,
  NeedsAttention,
  NothingToTransfer,
  remedyOf,
  type AttentionKind,
} from '../../server/src/domain/attention'
import { Refusal } from '../../server/src/domain/errors'
import { classifyProcessingFailure } from '../../server/src/domain/processing-failure'
import { TransferPlanDataError } from '../../server/src/domain/transfer-plan'
import { upstreamRefusal } from '../../server/src/lib/remote-call'

// What automatic processing will do after a failed attempt: retry, stop for a person, or stop
// with nothing to transfer.

const NORTHWIND = 'northwind-apparel.myshopify.com'

describe('classifyProcessingFailure', () => {
  it('stops for a person on a reason naming its brand, with that reason', () => {
    const reason = attention.noDefaultCommission(NORTHWIND)
    expect(classifyProcessingFailure(new NeedsAttention([reason]))).toEqual({
      outcome: 'needsAttention',
      reasons: [reason],
      message:
        'Commission not found: northwind apparel has no default commission: set it on its store page',
    })
  })

  it('does not retry a brand store that is not connected, though Shopify refused it (502)', () => {
    const reason = attention.brandStoreNotConnected(NORTHWIND, 'the app is not installed')
    const failure = classifyProcessingFailure(new NeedsAttention([reason], 'upstream_failed'))
    expect(failure).toMatchObject({ outcome: 'needsAttention', reasons: [reason] })
  })

  it('stops for a person on a refusal of the order itself, with its message and no brand reason', () => {
    for (const error of [
      new Refusal('business_rule', `${TRANSFER_ERRORS.paymentIntentNotSucceeded} for ${NORTHWIND}`),
      new TransferPlanDataError('Line 1 has an invalid quantity -1'),
    ]) {
      expect(classifyProcessingFailure(error)).toEqual({
        outcome: 'needsAttention',
        reasons: [],
        message: error.message,
      })
    }
  })

  it('retries what Shopify or Stripe failed, timed out or throttled, and a busy database', () => {
    const errors = [
      upstreamRefusal(
        'Brand catalogue read failed',
        'commerce platform',
        new CommerceError('HTTP 503'),
      ),
      new CommerceError('Shopify did not answer the order for a shop (HTTP 429)'),
      new DatabaseBusyError(),
      new Refusal('conflict', 'Another request is processing this order'),
    ]
    for (const error of errors) {
      expect(classifyProcessingFailure(error)).toEqual({
        outcome: 'transient',
        message: error.message,
      })
    }
  })

  it('has nothing to transfer for an order of no brand lines, one gone, or one processed already', () => {
    for (const error of [
      new NothingToTransfer(TRANSFER_ERRORS.noBrandOrders),
      new NothingToTransfer(TRANSFER_ERRORS.alreadyProcessed, 'conflict'),
      new Refusal('not_found', TRANSFER_ERRORS.creatorOrderNotFound),
    ]) {
      expect(classifyProcessingFailure(error)).toEqual({
        outcome: 'nothingToTransfer',
        message: error.message,
      })
    }
  })
})

describe('remedyOf: who fixes each reason, and where', () => {
  const MAYA = 'maya-makes.myshopify.com'
  const order = { id: '1002', storeShop: MAYA }
  const NORTHWIND_PAGE = '/main/stores/northwind-apparel.myshopify.com?type=BRAND'
  const MAYA_PAGE = '/main/stores/maya-makes.myshopify.com?type=CREATOR'
  const ORDER_PAGE = '/main/create-order-transfer?creatorOrderId=1002'
  // Every kind: the brand only where the fix is its own (its Stripe account, its Shopify admin),
  // the creator for what its order shows, an administrator for what Tandem's console sets.
  const expected: Record<AttentionKind, [role: string, link: string]> = {
    noDefaultCommission: ['ADMINISTRATOR', NORTHWIND_PAGE],
    brandStoreUnknown: ['ADMINISTRATOR', '/main/configs'],
    brandStoreNotConnected: ['ADMINISTRATOR', '/main/configs'],
    noPayoutAccount: ['ADMINISTRATOR', NORTHWIND_PAGE],
    payoutAccountUnknown: ['ADMINISTRATOR', NORTHWIND_PAGE],
    payoutAccountWithoutEmail: ['BRAND', NORTHWIND_PAGE],
    payoutAccountTransfersInactive: ['BRAND', NORTHWIND_PAGE],
    variantMissing: ['ADMINISTRATOR', MAYA_PAGE],
    productNotOnSale: ['BRAND', NORTHWIND_PAGE],
    listingStopped: ['ADMINISTRATOR', MAYA_PAGE],
    priceBelowBrand: ['ADMINISTRATOR', ORDER_PAGE],
    fraudRisk: ['ADMINISTRATOR', ORDER_PAGE],
    noPayment: ['CREATOR', MAYA_PAGE],
    totalAboveReceived: ['CREATOR', MAYA_PAGE],
  }
  it.each(Object.entries(expected))('%s: %j', (kind, [role, link]) => {
    // A creator's reasons wait on its own store; a brand's on the brand's.
    const shop = role === 'CREATOR' ? MAYA : NORTHWIND
    const remedy = remedyOf(kind as AttentionKind, shop, order)
    expect({ role: remedy.party.role, link: remedy.link.to }).toEqual({ role, link })
    expect(remedy.party.shop).toBe(
      role === 'ADMINISTRATOR' ? null : role === 'BRAND' ? NORTHWIND : MAYA,
    )
    expect(remedy.fix).not.toBe('')
  })

  it('says the fix of a reason in the words its sentence ends with', () => {
    const reason = attention.noPayoutAccount(NORTHWIND)
    expect(reason.sentence.endsWith(remedyOf(reason.kind, NORTHWIND, order).fix)).toBe(true)
  })
})

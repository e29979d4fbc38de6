import { randomUUID } from 'node:crypto'
import { ORDER_TAG, TRANSFER_ERRORS, type CallAnswer } from '@shared/contract'
import { PRODUCT_NAME } from '@shared/product'
import { CommerceError, type CommerceOrder } from '../adapters/commerce/commerce-port'
import { PaymentsError } from '../adapters/payments/payments-port'
import type { RouteDeps } from '../app'
import { toHundredths } from '../domain/money'
import { planTransfer, type BrandPlan } from '../domain/transfer-plan'
import { HttpError } from '../http/errors'
import { renderReceiptPdf } from '../receipt/receipt-pdf'
import { orderGid, orderNumber } from './order-gid'
import { loadPlanInput } from './plan-input'
import {
  createTransferRepository,
  frozenLines,
  type StoredTransfer,
  type TransferStep,
} from './transfer-repository'
import { creatorOrderOf, previewOf, receiptDataOf, type TransferView } from './transfer-view'

/**
 * A claim older than this belongs to a request that died mid-way (crash, restart) and may be taken
 * over. It is far longer than a live request can run, whose every call to the platform or the
 * provider is bounded by their timeouts, so a slow but live request is never overtaken.
 */
const CLAIM_STALE_AFTER_MS = 10 * 60_000

/** Not in SPEC.md §8's catalogue: the answer to a request that lost the race for the claim. */
const TRANSFER_IN_PROGRESS = 'Order transfer is already being processed'

/** What each step is called when it fails, and who failed it. */
const STEP_FAILURES: Record<TransferStep, { failure: string; system: string }> = {
  createOrder: { failure: 'Brand order create failed', system: 'commerce platform' },
  markOrderAsPaid: { failure: TRANSFER_ERRORS.markAsPaidFailed, system: 'commerce platform' },
  createTransfer: { failure: TRANSFER_ERRORS.transferCreateFailed, system: 'payment provider' },
}

type ProcessAnswer = CallAnswer<'adminCreateOrderTransfer'>

export function createTransferService(
  deps: Pick<RouteDeps, 'db' | 'commerce' | 'payments' | 'now'>,
) {
  const transfers = createTransferRepository(deps.db)
  const timestamp = () => deps.now().toISOString()

  /** The order and its transfer, if processing ever started; 404 for an unknown order. */
  async function loadOrder(creatorOrderId: string) {
    const id = orderNumber(creatorOrderId)
    const [order, transfer] =
      id === null
        ? [null, null]
        : await Promise.all([deps.commerce.findCreatorOrder(id), transfers.find(String(id))])
    if (!order) throw new HttpError(404, TRANSFER_ERRORS.creatorOrderNotFound)
    return { order, transfer }
  }

  /** The per-brand figures of an order that was never processed; 404 or 422 when there are none. */
  async function plan(order: CommerceOrder): Promise<BrandPlan[]> {
    const input = await loadPlanInput(deps.db, order)
    if (!input) throw new HttpError(404, TRANSFER_ERRORS.creatorOrderNotFound)
    const result = planTransfer(input)
    if (!result.ok) throw new HttpError(422, TRANSFER_ERRORS[result.error])
    return result.brands
  }

  /** Frozen figures once processing started (later rate changes never show); else the plan. */
  async function view(creatorOrderId: string): Promise<TransferView> {
    const { order, transfer } = await loadOrder(creatorOrderId)
    if (transfer) {
      return {
        order,
        status: transfer.status,
        processedAt: transfer.processed_at,
        brands: transfer.brands.map((brand) => ({
          brandStoreShop: brand.brand_store_shop,
          brandOrderId: brand.brand_order_id,
          brandAmountMinor: brand.brand_amount_minor,
          creatorCommissionMinor: brand.creator_commission_minor,
          tandemCommissionMinor: brand.tandem_commission_minor,
        })),
      }
    }
    const brands = await plan(order)
    return {
      order,
      status: 'NOT_STARTED',
      processedAt: null,
      brands: brands.map((brand) => ({ ...brand, brandOrderId: null })),
    }
  }

  /**
   * Runs one step against the platform or the provider. A failure is recorded on the brand's row
   * (the transfer stays PARTIAL and the next request resumes here) and answered: 502 when the
   * platform or provider failed, 422 when the step cannot be done as things stand.
   */
  async function step<T>(
    creatorOrderId: string,
    shop: string,
    name: TransferStep,
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      return await run()
    } catch (error) {
      const { failure, system } = STEP_FAILURES[name]
      const answer =
        error instanceof HttpError
          ? error
          : error instanceof CommerceError || error instanceof PaymentsError
            ? new HttpError(
                502,
                `${failure} for ${shop}: the ${system} answered "${error.message}"`,
              )
            : null
      const message = answer?.message ?? (error instanceof Error ? error.message : String(error))
      await transfers.recordFailure(creatorOrderId, shop, name, message)
      throw answer ?? error
    }
  }

  /** Each brand's order, its payment, and the transfer of its amount; finished steps are skipped. */
  async function runSteps(transfer: StoredTransfer, order: CommerceOrder) {
    const creatorOrderId = transfer.creator_order_id
    const brandOrders: { brandStoreShop: string; brandOrderId: string }[] = []
    for (const brand of transfer.brands) {
      const shop = brand.brand_store_shop
      let brandOrderId = brand.brand_order_id
      if (brandOrderId === null) {
        const created = await step(creatorOrderId, shop, 'createOrder', () =>
          deps.commerce.createOrder(shop, {
            lines: frozenLines(brand).map((line) => ({
              variantId: line.brandVariantId,
              quantity: line.quantity,
            })),
            currency: transfer.currency,
            email: order.email,
            shippingAddress: order.shippingAddress,
            tags: [ORDER_TAG],
            note: `${PRODUCT_NAME} transfer of creator order ${order.name} from ${order.storeShop}`,
            inventoryBehaviour: 'DECREMENT_OBEYING_POLICY',
          }),
        )
        brandOrderId = created.id
        await transfers.recordStep(creatorOrderId, shop, { brand_order_id: brandOrderId })
      }
      if (brand.paid_at === null) {
        const paidOrderId = brandOrderId
        await step(creatorOrderId, shop, 'markOrderAsPaid', () =>
          deps.commerce.markOrderAsPaid(shop, paidOrderId),
        )
        await transfers.recordStep(creatorOrderId, shop, { paid_at: timestamp() })
      }
      // The provider refuses a transfer of nothing; a brand whose lines were all free is owed none.
      if (brand.payment_transfer_id === null && brand.brand_amount_minor > 0) {
        const transferId = await step(creatorOrderId, shop, 'createTransfer', async () => {
          const account = await deps.payments.connectedAccount(shop)
          if (!account) throw new HttpError(422, TRANSFER_ERRORS.connectedAccountIdNotFound)
          const created = await deps.payments.createTransfer({
            amountMinor: brand.brand_amount_minor,
            currency: transfer.currency,
            destinationAccountId: account.accountId,
            // The same key on every attempt: a retry after a lost answer never pays twice.
            idempotencyKey: `transfer:${creatorOrderId}:${shop}`,
            description: `${PRODUCT_NAME} transfer of creator order ${order.name} to ${shop}`,
          })
          return created.id
        })
        await transfers.recordStep(creatorOrderId, shop, { payment_transfer_id: transferId })
      }
      brandOrders.push({ brandStoreShop: shop, brandOrderId })
    }
    return brandOrders
  }

  return {
    async preview(creatorOrderId: string) {
      const transfer = await view(creatorOrderId)
      return { creatorOrder: creatorOrderOf(transfer.order), preview: previewOf(transfer) }
    },

    async receipt(creatorOrderId: string): Promise<Uint8Array> {
      return renderReceiptPdf(receiptDataOf(await view(creatorOrderId), timestamp()))
    },

    /**
     * Freezes the plan on the first attempt, then runs the steps under a claim on the transfer row
     * so that concurrent requests never repeat a step. A request that finds the transfer claimed
     * is answered 409 at once rather than made to wait: processing calls remote services for
     * seconds, and the other request will report the outcome (a later preview shows it).
     */
    async process(creatorOrderId: string): Promise<ProcessAnswer> {
      const { order, transfer: existing } = await loadOrder(creatorOrderId)
      const id = String(order.id)
      if (existing?.status === 'COMPLETED') {
        throw new HttpError(409, TRANSFER_ERRORS.alreadyProcessed)
      }
      if (!existing) {
        const brands = await plan(order)
        await transfers.createIfAbsent(
          { creator_order_id: id, creator_store_shop: order.storeShop, currency: order.currency },
          brands.map((brand) => ({
            brand_store_shop: brand.brandStoreShop,
            base_minor: brand.baseMinor,
            tandem_rate_hundredths: toHundredths(brand.tandemRate),
            creator_rate_hundredths: toHundredths(brand.creatorRate),
            creator_commission_minor: brand.creatorCommissionMinor,
            tandem_commission_minor: brand.tandemCommissionMinor,
            brand_amount_minor: brand.brandAmountMinor,
            lines: brand.lines.map(({ brandVariantId, quantity }) => ({
              brandVariantId,
              quantity,
            })),
          })),
          timestamp(),
        )
      }

      const token = randomUUID()
      const now = timestamp()
      const staleBefore = new Date(Date.parse(now) - CLAIM_STALE_AFTER_MS).toISOString()
      if (!(await transfers.claim(id, token, now, staleBefore))) {
        // Either another request holds it, or it completed since the first read.
        const current = await transfers.find(id)
        throw new HttpError(
          409,
          current?.status === 'COMPLETED' ? TRANSFER_ERRORS.alreadyProcessed : TRANSFER_IN_PROGRESS,
        )
      }
      try {
        // Read under the claim: the steps another request finished before are skipped.
        const claimed = await transfers.find(id)
        if (!claimed) throw new Error(`Order transfer ${id} vanished while claimed`)
        const brandOrders = await runSteps(claimed, order)
        const processedAt = timestamp()
        await transfers.complete(id, token, processedAt)
        return { creatorOrderId: orderGid(id), status: 'COMPLETED', processedAt, brandOrders }
      } finally {
        await transfers.release(id, token)
      }
    },
  }
}

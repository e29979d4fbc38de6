import type { RequestContext } from './context'
import type { ProductSetResult, ProductSetUserError } from './product-set'
import { gid, type ShopRecord } from './state'
import { productView } from './views'

// productSet(synchronous: false): Shopify answers a ProductSetOperation at once (CREATED, no
// product) and does the work in the background; productOperation(id:) reads how it ended. The
// emulator has done the work by the time it answers, so a query finds it COMPLETE. Operations
// live as long as the process, as Shopify's are short-lived.

interface OperationRecord {
  id: string
  shop: string
  productId: string | null
  userErrors: ProductSetUserError[]
}

export class ProductSetOperations {
  private readonly operations = new Map<string, OperationRecord>()

  /** The operation as the mutation answers it. */
  add(shop: ShopRecord, result: ProductSetResult) {
    const id = gid('ProductSetOperation', this.operations.size + 1)
    const productId = result.product?.id ?? null
    this.operations.set(id, { id, shop: shop.domain, productId, userErrors: result.userErrors })
    return {
      __typename: 'ProductSetOperation',
      id,
      status: 'CREATED',
      product: null,
      userErrors: [],
    }
  }

  /** The operation as productOperation(id:) reads it; null for another shop's or an unknown id. */
  view(ctx: RequestContext, id: string) {
    const operation = this.operations.get(id)
    if (operation?.shop !== ctx.shop.domain) return null
    const product = ctx.shop.products.find((candidate) => candidate.id === operation.productId)
    return {
      __typename: 'ProductSetOperation',
      id,
      status: 'COMPLETE',
      product: product ? productView(ctx, product) : null,
      userErrors: operation.userErrors,
    }
  }
}

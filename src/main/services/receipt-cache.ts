/**
 * The receipt PDFs the renderer was shown, so that "Save PDF" writes exactly those bytes rather
 * than a fresh copy. Keyed by order number (`1001` and `gid://shopify/Order/1001` are one order);
 * only the last few are kept.
 */
export class ReceiptCache {
  private readonly byOrder = new Map<string, Uint8Array>()

  constructor(private readonly capacity = 5) {}

  remember(creatorOrderId: string, bytes: Uint8Array): void {
    const key = orderKey(creatorOrderId)
    this.byOrder.delete(key)
    this.byOrder.set(key, bytes)
    while (this.byOrder.size > this.capacity) {
      const oldest = this.byOrder.keys().next().value as string
      this.byOrder.delete(oldest)
    }
  }

  get(creatorOrderId: string): Uint8Array | undefined {
    return this.byOrder.get(orderKey(creatorOrderId))
  }

  forget(creatorOrderId: string): void {
    this.byOrder.delete(orderKey(creatorOrderId))
  }
}

export const orderKey = (creatorOrderId: string): string =>
  creatorOrderId.trim().replace(/^gid:\/\/shopify\/Order\//, '')

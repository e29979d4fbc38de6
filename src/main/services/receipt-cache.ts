import { randomUUID } from 'node:crypto'

const CAPACITY = 5

/**
 * The receipt PDFs the renderer was shown, each under an id of its own, so that "Save PDF" writes
 * exactly the bytes on screen: never a fresh copy, nor another window's or an earlier fetch's
 * receipt of the same order. Only the last few are kept.
 */
export class ReceiptCache {
  private readonly byId = new Map<string, Uint8Array>()

  /** Keeps the bytes and answers the id that names them. */
  remember(bytes: Uint8Array): string {
    const receiptId = randomUUID()
    this.byId.set(receiptId, bytes)
    while (this.byId.size > CAPACITY) {
      const oldest = this.byId.keys().next().value as string
      this.byId.delete(oldest)
    }
    return receiptId
  }

  get(receiptId: string): Uint8Array | undefined {
    return this.byId.get(receiptId)
  }
}

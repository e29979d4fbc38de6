import { z } from 'zod'

// The Sandbox page's one call (server/src/sandbox/sandbox-controls.ts): an action of the
// sandbox's customer, creators, brands or payment app, done through the emulators. A server that
// is not in sandbox mode beside them answers 404 with why.

/** The sandbox's stores and products by the names the actions take (server/src/seed/sandbox-data.ts). */
export const SANDBOX_CHOICES = {
  creators: ['maya-makes', 'urban-trail-edits'],
  brands: ['northwind-apparel', 'lumen-botanicals', 'ironpeak-outdoor'],
  products: [
    'linen-overshirt',
    'merino-crew-socks',
    'rosehip-face-oil',
    'cedar-soap-bar',
    'trail-headlamp',
    'sticker-pack',
  ],
} as const

const OrderNumber = z.string().trim().min(1, 'Name the creator order, as 1001')
const StoreName = z.string().trim().min(1, 'Choose a sandbox store')
const ProductName = z.string().trim().min(1, 'Choose a sandbox product')
const Count = (least: number) =>
  z.number().int('Must be a whole number').min(least, `Must be at least ${least}`)

export const SandboxActionInput = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('order'),
      creator: StoreName,
      items: z.array(z.object({ product: ProductName, quantity: Count(1) }).strict()).min(1),
    })
    .strict(),
  z
    .object({
      action: z.literal('refund'),
      order: OrderNumber,
      line: Count(1),
      quantity: Count(1).optional(),
      only: z.enum(['shopify', 'stripe']).optional(),
    })
    .strict(),
  z.object({ action: z.literal('cancel'), order: OrderNumber }).strict(),
  z.object({ action: z.literal('data-request'), order: OrderNumber }).strict(),
  z
    .object({
      action: z.literal('ship'),
      order: OrderNumber,
      brand: StoreName,
      tracking: z.string().trim().min(1, 'Type the tracking number'),
      carrier: z.string().trim().optional(),
    })
    .strict(),
  z.object({ action: z.literal('hold'), order: OrderNumber, brand: StoreName }).strict(),
  z
    .object({
      action: z.literal('reprice'),
      store: StoreName,
      product: ProductName,
      price: z.string().trim().min(1, 'Type a price, as 72.00'),
    })
    .strict(),
  z
    .object({
      action: z.literal('stock'),
      store: StoreName,
      product: ProductName,
      count: Count(0),
    })
    .strict(),
])
export type SandboxActionInput = z.infer<typeof SandboxActionInput>

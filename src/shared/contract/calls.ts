import { z } from 'zod'
import { SandboxActionInput } from './sandbox'
import {
  AppConfig,
  AppCredential,
  AppUrls,
  AuditEntry,
  BrandPause,
  CatalogListing,
  CreatorOrder,
  CreatorOrderId,
  CreatorOrderSummary,
  DataRequestSummary,
  DefaultCommission,
  DefaultCommissionInput,
  HoldReason,
  JobId,
  MoneyAmount,
  OrderHold,
  OrderTransferRecord,
  PageQuery,
  Shipment,
  ShippingPolicy,
  ProductSyncStatus,
  Rate,
  RefundLineInput,
  RefundSplitPreview,
  ShopConnection,
  PaymentAccountId,
  ShopDomain,
  Store,
  StorePaymentAccount,
  StoreProduct,
  TransferPolicy,
  TransferPolicyInput,
  TransferPreview,
  TroubledJob,
  UniqueCommissionRate,
  UniqueCommissionRateInput,
} from './entities'
import { FulfillmentOrderStatus, JobKind, ListingStatus, ShopType, TransferStatus } from './enums'
import { numberSchema, STOCK_BUFFER_RULE } from './number-rules'

// The specification's fourteen calls and those Tandem adds (docs/product-rules.md "The server's
// calls"): one request schema (query, params or body) and one answer schema each. The server
// validates requests with these; the main process parses answers with them.

type Method = 'GET' | 'POST' | 'DELETE'

/** What every call declares; the server routes it and main's API client makes it from this. */
export interface CallShape {
  method: Method
  path: string
  /**
   * What the call does, in the words of the console's toasts (docs/product-rules.md "The
   * console's texts"): a failure reads `Failed to {action}: {reason}`.
   */
  action: string
  /**
   * Whether any answer but `status` is an error. The specification says so of the commission
   * calls only; other calls accept any 2xx: their answer schema is what guards the console, and a
   * 200 where 201 was expected changes nothing a person sees.
   */
  exactStatus?: true
  query?: z.ZodType
  params?: z.ZodType
  body?: z.ZodType
  /** Undefined for a file (the receipt PDF, the CSV export): its bytes are the answer. */
  response?: z.ZodType
  /** The media type of a file answer. */
  fileType?: string
  status: number
}

const call = <C extends CallShape>(shape: C): C => shape

const NoQuery = z.object({}).strict()

/** An administrator's override of one check of one order, with the reason the audit log keeps. */
const OrderOverride = z.object({ creatorOrderId: CreatorOrderId, reason: HoldReason }).strict()

export const calls = {
  getAllAppConfig: call({
    method: 'GET',
    path: '/get-all-app-config',
    action: 'fetch app config',
    query: NoQuery,
    response: z.object({ appConfigs: z.array(AppConfig) }),
    status: 200,
  }),
  createAppConfig: call({
    method: 'POST',
    path: '/create-app-config',
    action: 'create app config',
    body: z
      .object({
        shop: ShopDomain,
        clientId: AppCredential,
        clientSecret: AppCredential,
        shopType: ShopType,
      })
      .strict(),
    response: z.object({ appConfig: AppConfig }),
    status: 201,
  }),
  deleteAppConfig: call({
    method: 'DELETE',
    path: '/delete-app-config/:shop',
    action: 'delete app config',
    params: z.object({ shop: ShopDomain }).strict(),
    response: z.object({ appConfig: AppConfig }),
    status: 200,
  }),
  getAppUrls: call({
    method: 'GET',
    path: '/get-app-urls',
    action: 'fetch app urls',
    query: NoQuery,
    response: AppUrls,
    status: 200,
  }),
  adminShopConnection: call({
    method: 'GET',
    path: '/admin-shop-connection',
    action: 'fetch connection',
    query: z.object({ shop: ShopDomain }).strict(),
    response: ShopConnection,
    status: 200,
  }),
  adminTestShopConnection: call({
    method: 'POST',
    path: '/admin-test-shop-connection',
    action: 'test connection',
    body: z.object({ shop: ShopDomain }).strict(),
    response: ShopConnection,
    status: 200,
  }),
  adminAllStores: call({
    method: 'GET',
    path: '/admin-all-stores',
    action: 'fetch stores',
    query: NoQuery,
    response: z.array(Store),
    status: 200,
  }),
  adminUpdateProducts: call({
    method: 'POST',
    path: '/admin-update-products',
    action: 'sync products',
    body: z.object({ storeShop: ShopDomain }).strict(),
    response: z.object({
      storeShop: z.string(),
      productCount: z.number().int().nonnegative(),
      syncedAt: z.string(),
    }),
    status: 200,
  }),
  adminProductSyncStatus: call({
    method: 'GET',
    path: '/admin-product-sync-status',
    action: 'fetch sync progress',
    query: z.object({ storeShop: ShopDomain }).strict(),
    response: ProductSyncStatus,
    status: 200,
  }),
  adminStorePaymentAccount: call({
    method: 'GET',
    path: '/admin-store-payment-account',
    action: 'fetch payout account',
    query: z.object({ shop: ShopDomain }).strict(),
    response: StorePaymentAccount,
    status: 200,
  }),
  adminSetStorePaymentAccount: call({
    method: 'POST',
    path: '/admin-set-store-payment-account',
    action: 'set payout account',
    body: z.object({ shop: ShopDomain, accountId: PaymentAccountId }).strict(),
    response: StorePaymentAccount,
    status: 200,
  }),
  adminSetDefaultCommissionRate: call({
    method: 'POST',
    path: '/admin-set-default-commission-rate',
    action: 'set default commission rates',
    exactStatus: true,
    body: z.object({ defaultCommission: DefaultCommissionInput }).strict(),
    response: z.object({ defaultCommission: DefaultCommission }),
    status: 200,
  }),
  adminGetDefaultShopCommissionRate: call({
    method: 'GET',
    path: '/admin-get-default-shop-commission-rate',
    action: 'fetch default commission rates',
    exactStatus: true,
    query: z.object({ shop: ShopDomain }).strict(),
    response: z.object({
      tandemCommissionRate: Rate.nullable(),
      creatorCommissionRate: Rate.nullable(),
    }),
    status: 200,
  }),
  adminGetUniqueCommissionRates: call({
    method: 'GET',
    path: '/admin-get-unique-commission-rates',
    action: 'fetch commission rates',
    exactStatus: true,
    // A missing shop means "any".
    query: z
      .object({ brandShop: ShopDomain.optional(), creatorShop: ShopDomain.optional() })
      .strict(),
    response: z.object({ uniqueCommissionRates: z.array(UniqueCommissionRate) }),
    status: 200,
  }),
  adminCreateUniqueCommissionRate: call({
    method: 'POST',
    path: '/admin-create-unique-commission-rate',
    action: 'create commission rate',
    exactStatus: true,
    body: z.object({ uniqueCommissionRate: UniqueCommissionRateInput }).strict(),
    response: z.object({
      uniqueCommissionRate: UniqueCommissionRate,
      // The pair's rate this one replaced, or null when the pair had none: the console says
      // "updated" rather than "created" for a replacement.
      replacedCommissionRate: Rate.nullable(),
    }),
    // A non-200 answer to a commission call is an error, creating one included.
    status: 200,
  }),
  adminDeleteUniqueCommissionRate: call({
    method: 'DELETE',
    path: '/admin-delete-unique-commission-rate',
    action: 'delete commission rate',
    exactStatus: true,
    query: z.object({ brandShop: ShopDomain, creatorShop: ShopDomain }).strict(),
    response: z.object({ uniqueCommissionRate: UniqueCommissionRate }),
    status: 200,
  }),
  adminPreviewOrderTransfer: call({
    method: 'GET',
    path: '/admin-preview-order-transfer',
    action: 'fetch preview',
    query: z.object({ creatorOrderId: CreatorOrderId }).strict(),
    response: z.object({ creatorOrder: CreatorOrder, preview: TransferPreview }),
    status: 200,
  }),
  /**
   * A read, sent as a POST for its list of lines: what refunding them too would take back from each
   * party, with the refunds already made (none chosen: those alone).
   */
  adminPreviewRefundSplit: call({
    method: 'POST',
    path: '/admin-preview-refund-split',
    action: 'preview refund split',
    body: z
      .object({ creatorOrderId: CreatorOrderId, lines: z.array(RefundLineInput).max(250) })
      .strict(),
    response: RefundSplitPreview,
    status: 200,
  }),
  adminPreviewOrderTransferReceiptPdf: call({
    method: 'GET',
    path: '/admin-preview-order-transfer-receipt-pdf',
    action: 'fetch receipt PDF',
    query: z.object({ creatorOrderId: CreatorOrderId }).strict(),
    fileType: 'application/pdf',
    status: 200,
  }),
  adminCreateOrderTransfer: call({
    method: 'POST',
    path: '/admin-create-order-transfer',
    action: 'process transfer',
    body: z.object({ creatorOrderId: CreatorOrderId }).strict(),
    response: z.object({
      creatorOrderId: z.string(),
      status: TransferStatus,
      processedAt: z.string().nullable(),
      brandOrders: z.array(
        z.object({ brandStoreShop: z.string(), brandOrderId: z.string().nullable() }),
      ),
    }),
    status: 201,
  }),
  /** Accepts one order's lines priced below their brands' prices, as they stand, with a reason. */
  adminAcceptPriceException: call({
    method: 'POST',
    path: '/admin-accept-price-exception',
    action: 'accept price exception',
    body: OrderOverride,
    response: z.object({
      creatorOrderId: z.string(),
      acceptedLines: z.number().int().positive(),
      acceptedAt: z.string(),
    }),
    status: 200,
  }),
  /**
   * Releases one order for transfer although Shopify found a risk of fraud on it (Order.risk, a
   * HIGH_RISK_OF_FRAUD hold), as Shopify has it now, with a reason.
   */
  adminReleaseFraudCheck: call({
    method: 'POST',
    path: '/admin-release-fraud-check',
    action: 'release fraud check',
    body: OrderOverride,
    response: z.object({
      creatorOrderId: z.string(),
      findings: z.string(),
      releasedAt: z.string(),
    }),
    status: 200,
  }),
  adminTransferPolicy: call({
    method: 'GET',
    path: '/admin-transfer-policy',
    action: 'fetch transfer policy',
    query: NoQuery,
    response: TransferPolicy,
    status: 200,
  }),
  adminSetTransferPolicy: call({
    method: 'POST',
    path: '/admin-set-transfer-policy',
    action: 'set transfer policy',
    body: TransferPolicyInput.strict(),
    response: TransferPolicy,
    status: 200,
  }),
  /** Brand orders of transferred creator orders, newest transfer first, with what they shipped. */
  adminShipments: call({
    method: 'GET',
    path: '/admin-shipments',
    action: 'fetch shipments',
    query: z
      .object({
        /** The brand fulfillment order's status, as Shopify words it. */
        status: FulfillmentOrderStatus.optional(),
        /** Only the brand orders not shipped in full within the policy's days. */
        late: z.literal('true').optional(),
        brandShop: ShopDomain.optional(),
        creatorShop: ShopDomain.optional(),
        ...PageQuery,
      })
      .strict(),
    response: z.object({
      shipments: z.array(Shipment),
      nextCursor: z.string().nullable(),
    }),
    status: 200,
  }),
  adminShippingPolicy: call({
    method: 'GET',
    path: '/admin-shipping-policy',
    action: 'fetch shipping policy',
    query: NoQuery,
    response: ShippingPolicy,
    status: 200,
  }),
  adminSetShippingPolicy: call({
    method: 'POST',
    path: '/admin-set-shipping-policy',
    action: 'set shipping policy',
    body: ShippingPolicy.strict(),
    response: ShippingPolicy,
    status: 200,
  }),
  /** Automatic processing leaves the order until it is released; a click still processes it. */
  adminHoldOrder: call({
    method: 'POST',
    path: '/admin-hold-order',
    action: 'hold order',
    body: z.object({ creatorOrderId: CreatorOrderId, reason: HoldReason }).strict(),
    response: OrderHold,
    status: 200,
  }),
  adminReleaseOrder: call({
    method: 'POST',
    path: '/admin-release-order',
    action: 'release order',
    body: z.object({ creatorOrderId: CreatorOrderId }).strict(),
    response: z.object({ released: OrderHold }),
    status: 200,
  }),
  adminBrandPause: call({
    method: 'GET',
    path: '/admin-brand-pause',
    action: 'fetch brand pause',
    query: z.object({ shop: ShopDomain }).strict(),
    response: z.object({ pause: BrandPause.nullable() }),
    status: 200,
  }),
  /** Automatic processing leaves the brand's orders until it is resumed. */
  adminPauseBrand: call({
    method: 'POST',
    path: '/admin-pause-brand',
    action: 'pause brand',
    body: z.object({ shop: ShopDomain, reason: HoldReason }).strict(),
    response: BrandPause,
    status: 200,
  }),
  adminResumeBrand: call({
    method: 'POST',
    path: '/admin-resume-brand',
    action: 'resume brand',
    body: z.object({ shop: ShopDomain }).strict(),
    response: z.object({ resumed: BrandPause }),
    status: 200,
  }),
  adminCreatorOrders: call({
    method: 'GET',
    path: '/admin-creator-orders',
    action: 'fetch orders',
    query: z
      .object({
        status: TransferStatus.optional(),
        /** Only the orders a person must act on before they can transfer. */
        needsAttention: z.literal('true').optional(),
        creatorShop: ShopDomain.optional(),
        /** Part of the order's name (#1001) or its id. */
        q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
        ...PageQuery,
      })
      .strict(),
    response: z.object({ orders: z.array(CreatorOrderSummary), nextCursor: z.string().nullable() }),
    status: 200,
  }),
  // The sidebar's count beside Orders: the orders the needsAttention filter lists, without them.
  adminOrdersNeedingAttention: call({
    method: 'GET',
    path: '/admin-orders-needing-attention',
    action: 'count orders needing attention',
    query: NoQuery,
    response: z.object({ count: z.number().int().nonnegative() }),
    status: 200,
  }),
  adminOrderTransfers: call({
    method: 'GET',
    path: '/admin-order-transfers',
    action: 'fetch transfer history',
    query: z.object({ ...PageQuery }).strict(),
    response: z.object({
      transfers: z.array(OrderTransferRecord),
      nextCursor: z.string().nullable(),
    }),
    status: 200,
  }),
  adminOrderTransfersCsv: call({
    method: 'GET',
    path: '/admin-order-transfers.csv',
    action: 'export CSV',
    query: NoQuery,
    fileType: 'text/csv; charset=utf-8',
    status: 200,
  }),
  adminStoreProducts: call({
    method: 'GET',
    path: '/admin-store-products',
    action: 'fetch products',
    query: z
      .object({
        storeShop: ShopDomain,
        /** Products whose title contains it, whatever the case. */
        search: z.string().trim().max(200).optional(),
        ...PageQuery,
      })
      .strict(),
    response: z.object({ products: z.array(StoreProduct), nextCursor: z.string().nullable() }),
    status: 200,
  }),
  /** A creator's listings, or a brand's (with its stock buffer): one of the two shops. */
  adminCatalogListings: call({
    method: 'GET',
    path: '/admin-catalog-listings',
    action: 'fetch listings',
    query: z
      .object({ creatorStoreShop: ShopDomain.optional(), brandStoreShop: ShopDomain.optional() })
      .strict()
      .refine((query) => Boolean(query.creatorStoreShop) !== Boolean(query.brandStoreShop), {
        message: 'give either creatorStoreShop or brandStoreShop',
      }),
    response: z.object({
      listings: z.array(CatalogListing),
      /** The brand's units kept back from creator stores; null for a creator. */
      stockBuffer: z.number().int().nullable(),
    }),
    status: 200,
  }),
  adminListProducts: call({
    method: 'POST',
    path: '/admin-list-products',
    action: 'list products',
    body: z
      .object({
        creatorStoreShop: ShopDomain,
        brandStoreShop: ShopDomain,
        productIds: z.array(z.string().trim().min(1)).min(1, 'pick at least one product').max(50),
        /** A price above the brand's for every variant; null or absent sells at the brand's. */
        price: MoneyAmount.nullable().optional(),
      })
      .strict(),
    response: z.object({
      listed: z.array(CatalogListing),
      /** Products not listed, each with why. */
      refused: z.array(z.object({ productId: z.string(), message: z.string() })),
    }),
    status: 200,
  }),
  adminSetListing: call({
    method: 'POST',
    path: '/admin-set-listing',
    action: 'change listing',
    body: z
      .object({
        listingId: z.string().trim().min(1),
        status: ListingStatus,
        price: MoneyAmount.nullable().optional(),
      })
      .strict(),
    response: CatalogListing,
    status: 200,
  }),
  adminSetStockBuffer: call({
    method: 'POST',
    path: '/admin-set-stock-buffer',
    action: 'set stock buffer',
    body: z
      .object({
        brandStoreShop: ShopDomain,
        units: numberSchema(STOCK_BUFFER_RULE),
      })
      .strict(),
    response: z.object({ brandStoreShop: z.string(), stockBuffer: z.number().int() }),
    status: 200,
  }),
  adminAuditLog: call({
    method: 'GET',
    path: '/admin-audit-log',
    action: 'fetch activity',
    query: z.object({ ...PageQuery }).strict(),
    response: z.object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() }),
    status: 200,
  }),
  adminDataRequests: call({
    method: 'GET',
    path: '/admin-data-requests',
    action: 'fetch data requests',
    query: z.object({ ...PageQuery }).strict(),
    response: z.object({
      requests: z.array(DataRequestSummary),
      nextCursor: z.string().nullable(),
    }),
    status: 200,
  }),
  adminDataRequestJson: call({
    method: 'GET',
    path: '/admin-data-request.json',
    action: 'download data request',
    query: z.object({ id: z.string().trim().min(1).max(200) }).strict(),
    fileType: 'application/json; charset=utf-8',
    status: 200,
  }),
  // Not paged: the jobs in trouble are few, and the queue lists them whole.
  adminTroubledJobs: call({
    method: 'GET',
    path: '/admin-troubled-jobs',
    action: 'fetch jobs',
    query: NoQuery,
    response: z.object({ jobs: z.array(TroubledJob) }),
    status: 200,
  }),
  adminSandboxAction: call({
    method: 'POST',
    path: '/admin-sandbox-action',
    action: 'act in the sandbox',
    body: SandboxActionInput,
    response: z.object({ message: z.string() }),
    status: 200,
  }),
  adminRetryJob: call({
    method: 'POST',
    path: '/admin-retry-job',
    action: 'retry job',
    body: z.object({ id: JobId }).strict(),
    response: z.object({ id: z.string(), kind: JobKind }),
    status: 200,
  }),
} as const

export type Calls = typeof calls
export type CallName = keyof Calls
/** The parsed answer of a call (a file call answers its bytes). */
export type CallAnswer<N extends CallName> = Calls[N] extends { response: z.ZodType }
  ? z.output<Calls[N]['response']>
  : Uint8Array
/** A request's query, path parameters or body as the call's schema parsed it. */
export type CallParsed<
  N extends CallName,
  K extends 'query' | 'params' | 'body',
> = Calls[N] extends {
  [key in K]: z.ZodType
}
  ? z.output<Calls[N][K]>
  : undefined
/** Where a call takes its input: each call has one of the three. */
export type InputPlace = 'query' | 'params' | 'body'
const INPUT_PLACES: readonly InputPlace[] = ['body', 'params', 'query']

/** Where a call takes its input, and its schema; null for a call that takes none. */
export function callInput(name: CallName): { place: InputPlace; schema: z.ZodType } | null {
  const call: CallShape = calls[name]
  for (const place of INPUT_PLACES) {
    const schema = call[place]
    if (schema && schema !== NoQuery) return { place, schema }
  }
  return null
}

type InputSchemaOf<C> = C extends { body: z.ZodType }
  ? C['body']
  : C extends { params: z.ZodType }
    ? C['params']
    : C extends { query: z.ZodType }
      ? C['query']
      : undefined
type InputOf<N extends CallName> = InputSchemaOf<Calls[N]> & z.ZodType
/** Whether a call takes no input: it has no input schema, or one of an empty object. */
type TakesNoInput<N extends CallName> =
  InputSchemaOf<Calls[N]> extends z.ZodType
    ? z.output<InputOf<N>> extends Record<string, never>
      ? true
      : false
    : true
/** A call's input as a caller gives it (undefined for a call that takes none). */
export type CallArgs<N extends CallName> =
  TakesNoInput<N> extends true ? undefined : z.input<InputOf<N>>
/** A call's input once its schema parsed it. */
export type CallInputParsed<N extends CallName> =
  TakesNoInput<N> extends true ? undefined : z.output<InputOf<N>>

export type CallBody<N extends CallName> = Calls[N] extends { body: z.ZodType }
  ? z.input<Calls[N]['body']>
  : never
export type CallQuery<N extends CallName> = Calls[N] extends { query: z.ZodType }
  ? z.input<Calls[N]['query']>
  : never

import { describe, expect, it } from 'vitest'
import {
  calls,
  CreatorOrderId,
  DefaultCommissionInput,
  PaymentAccountId,
  Rate,
  SHOP_TYPES,
  ShopDomain,
  FILE_CONTENT_TYPES,
} from '@shared/contract'

describe('contract', () => {
  it('trims and lower-cases shop domains and refuses what is not name.myshopify.com', () => {
    expect(ShopDomain.parse('  Maya-Makes.MyShopify.com ')).toBe('maya-makes.myshopify.com')
    // The store's URL, as the Stores list shows it, is the same shop.
    expect(ShopDomain.parse('https://Maya.myshopify.com/')).toBe('maya.myshopify.com')
    for (const bad of [
      'maya-makes.com',
      'https://evil.example/maya.myshopify.com',
      'https://maya.myshopify.com/admin',
      '',
      '-x.myshopify.com',
      'a b.myshopify.com',
    ]) {
      expect(ShopDomain.safeParse(bad).success, bad).toBe(false)
    }
  })

  it('accepts rates from 0 to 100 with at most two decimals', () => {
    for (const good of [0, 10, 12.5, 33.33, 100])
      expect(Rate.safeParse(good).success, String(good)).toBe(true)
    for (const bad of [-1, 100.01, 12.345, Number.NaN, Infinity]) {
      expect(Rate.safeParse(bad).success, String(bad)).toBe(false)
    }
  })

  it('refuses a default commission whose two rates exceed 100 together, naming the rule', () => {
    const result = DefaultCommissionInput.safeParse({
      brandStoreShop: 'northwind-apparel.myshopify.com',
      tandemCommissionRate: 60,
      creatorCommissionRate: 41,
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(
      'Tandem and creator commission rates together must not exceed 100',
    )
  })

  it('takes a creator order id as a number or its GID and says when it is missing', () => {
    expect(CreatorOrderId.parse(' 1001 ')).toBe('1001')
    expect(CreatorOrderId.parse('gid://shopify/Order/1001')).toBe('gid://shopify/Order/1001')
    expect(CreatorOrderId.safeParse('').error?.issues[0]?.message).toBe(
      'Creator order ID is required',
    )
    expect(CreatorOrderId.safeParse('gid://shopify/Product/1').success).toBe(false)
  })

  it('takes a Stripe account id trimmed and says what it must look like', () => {
    expect(PaymentAccountId.parse(' acct_1Northwind ')).toBe('acct_1Northwind')
    expect(PaymentAccountId.safeParse('').error?.issues[0]?.message).toBe('is required')
    for (const bad of [
      'northwind',
      'acct_',
      'ACCT_1Northwind',
      'acct_1 Northwind',
      'cus_1Northwind',
    ]) {
      expect(PaymentAccountId.safeParse(bad).error?.issues[0]?.message, bad).toBe(
        'must look like acct_…',
      )
    }
  })

  it('lists the specification’s fourteen calls, then those Tandem adds, with their paths', () => {
    expect(Object.values(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /get-all-app-config',
      'POST /create-app-config',
      'DELETE /delete-app-config/:shop',
      'GET /get-app-urls',
      'GET /admin-shop-connection',
      'POST /admin-test-shop-connection',
      'GET /admin-all-stores',
      'POST /admin-update-products',
      'GET /admin-product-sync-status',
      'GET /admin-store-payment-account',
      'POST /admin-set-store-payment-account',
      'POST /admin-set-default-commission-rate',
      'GET /admin-get-default-shop-commission-rate',
      'GET /admin-get-unique-commission-rates',
      'POST /admin-create-unique-commission-rate',
      'DELETE /admin-delete-unique-commission-rate',
      'GET /admin-preview-order-transfer',
      'POST /admin-preview-refund-split',
      'GET /admin-preview-order-transfer-receipt-pdf',
      'POST /admin-create-order-transfer',
      'POST /admin-accept-price-exception',
      'POST /admin-release-fraud-check',
      'GET /admin-transfer-policy',
      'POST /admin-set-transfer-policy',
      'GET /admin-shipments',
      'GET /admin-shipping-policy',
      'POST /admin-set-shipping-policy',
      'POST /admin-hold-order',
      'POST /admin-release-order',
      'GET /admin-brand-pause',
      'POST /admin-pause-brand',
      'POST /admin-resume-brand',
      'GET /admin-creator-orders',
      'GET /admin-orders-needing-attention',
      'GET /admin-order-transfers',
      'GET /admin-order-transfers.csv',
      'GET /admin-store-products',
      'GET /admin-catalog-listings',
      'POST /admin-list-products',
      'POST /admin-set-listing',
      'POST /admin-set-stock-buffer',
      'GET /admin-audit-log',
      'GET /admin-data-requests',
      'GET /admin-data-request.json',
      'GET /admin-troubled-jobs',
      'POST /admin-sandbox-action',
      'POST /admin-retry-job',
    ])
  })

  it('refuses unknown fields in request bodies', () => {
    const result = calls.createAppConfig.body.safeParse({
      shop: 'maya-makes.myshopify.com',
      clientId: 'id',
      clientSecret: 'secret',
      shopType: 'CREATOR',
      admin: true,
    })
    expect(result.success).toBe(false)
  })

  it('keeps the specification’s shared enumerations', () => {
    expect(SHOP_TYPES).toEqual(['BRAND', 'CREATOR'])
    expect(FILE_CONTENT_TYPES).toEqual(['EXTERNAL_VIDEO', 'IMAGE', 'MODEL_3D', 'VIDEO', 'FILE'])
  })
})

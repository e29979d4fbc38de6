import { describe, expect, it } from 'vitest'
import {
  enumWords,
  formatDateTime,
  formatMoney,
  formatRate,
  plural,
  shortId,
  storeName,
} from '@renderer/lib/format'

describe('storeName', () => {
  it.each([
    ['maya-makes.myshopify.com', 'maya makes'],
    ['urban-trail-edits.myshopify.com', 'urban trail edits'],
    ['northwind.myshopify.com', 'northwind'],
    ['bench-brand-00042.myshopify.com', 'bench brand 00042'],
    ['localhost', 'localhost'],
    ['', ''],
  ])('names %j %j', (shop, name) => {
    expect(storeName(shop)).toBe(name)
  })
})

describe('formatMoney', () => {
  it.each([
    ['102.00', 'USD', '$102.00'],
    ['126.84', 'USD', '$126.84'],
    ['1234.5', 'USD', '$1,234.50'],
    [0, 'USD', '$0.00'],
    ['-2.70', 'USD', '-$2.70'],
    ['46.50', 'EUR', '€46.50'],
    // Yen have no minor unit: no decimals shown.
    ['1200', 'JPY', '¥1,200'],
    [1200, 'JPY', '¥1,200'],
  ])('shows %j %s as %j in en-US', (value, currency, shown) => {
    expect(formatMoney(value, currency, 'en-US')).toBe(shown)
  })

  it("follows the reader's locale", () => {
    expect(formatMoney('46.50', 'EUR', 'de-DE')).toBe('46,50\u00a0€')
    expect(formatMoney('1200', 'JPY', 'ja-JP')).toBe('￥1,200')
  })

  it.each([null, undefined, '', '   ', 'abc', '12,50', 'NaN', '0x10', '1e3', NaN, Infinity])(
    'shows "-" for %j',
    (value) => {
      expect(formatMoney(value, 'USD', 'en-US')).toBe('-')
    },
  )

  it('still shows the amount when the currency code is unknown to Intl', () => {
    expect(formatMoney('12.5', 'US', 'en-US')).toBe('12.5 US')
  })
})

describe('formatDateTime', () => {
  it('shows a moment with its date and time in the given locale', () => {
    const shown = formatDateTime('2026-03-14T15:09:00Z', 'en-US')
    expect(shown).toMatch(/^Mar 1[45], 2026, \d{1,2}:\d{2}\s?[AP]M$/)
  })

  it.each([null, undefined, '', 'yesterday'])('shows "—" for %j', (value) => {
    expect(formatDateTime(value, 'en-US')).toBe('—')
  })
})

describe('shortId', () => {
  it.each([
    ['gid://shopify/Order/1006', '…/Order/1006'],
    ['gid://shopify/Order/5001', '…/Order/5001'],
    ['tr_1PabcdefGhij9xQ2aB', 'tr_…9xQ2aB'],
    ['acct_sandbox_northwind', 'acct_sandbox_northwind'],
    ['1005', '1005'],
  ])('shows %j as %j', (id, shown) => {
    expect(shortId(id)).toBe(shown)
  })
})

describe('plural and formatRate', () => {
  it('counts with the noun that fits', () => {
    expect(plural(1, 'brand', 'brands')).toBe('1 brand')
    expect(plural(2, 'brand', 'brands')).toBe('2 brands')
  })

  it('shows a rate in percent', () => {
    expect(formatRate(9.5)).toMatch(/^9\.5\s?%$/)
  })
})

describe('enumWords', () => {
  it('writes a Shopify enum value as words, as badges and filters show it', () => {
    expect(enumWords('ON_HOLD')).toBe('On hold')
    expect(enumWords('HIGH_RISK_OF_FRAUD')).toBe('High risk of fraud')
    expect(enumWords('OPEN')).toBe('Open')
  })
})

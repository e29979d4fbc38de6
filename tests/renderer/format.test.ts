import { describe, expect, it } from 'vitest'
import { storeName } from '@renderer/lib/format'

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

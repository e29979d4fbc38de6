import { describe, expect, it } from 'vitest'
import { decodeWire, encodeWire } from '@shared/wire'

describe('wire codec', () => {
  it('carries bytes through JSON unchanged, next to ordinary values', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256)
    const decoded = decodeWire(encodeWire({ ok: true, value: bytes, name: '#1001' })) as {
      value: Uint8Array
      name: string
    }
    expect(decoded.value).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(decoded.value).equals(Buffer.from(bytes))).toBe(true)
    expect(decoded.name).toBe('#1001')
  })

  it('leaves an object that merely has a $bytes field among others alone', () => {
    expect(decodeWire('{"$bytes":"AA==","other":1}')).toEqual({ $bytes: 'AA==', other: 1 })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxCatalogue } from '../../emulators/shopify/emulator'
import { PUBLIC_URL, startServerUnderTest, type ServerUnderTest } from './support/server-under-test'

// The sandbox's product images, drawn by the server: public (an <img> sends no bearer token).

let server: ServerUnderTest
beforeAll(async () => {
  server = await startServerUnderTest()
})
afterAll(() => server.close())

const image = (key: string) =>
  server.app.inject({ method: 'GET', url: `/images/products/${key}.svg` })

const fillOf = (svg: string) => /<rect [^>]*fill="([^"]+)"/.exec(svg)?.[1]

describe('GET /images/products/:key.svg', () => {
  it('answers an SVG tile with the initials, cacheable', async () => {
    const response = await image('linen-overshirt')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8')
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/)
    expect(response.body).toMatch(/>LO<\/text>/)
    expect(fillOf(response.body)).toMatch(/^hsl\(\d{1,3}, 55%, 42%\)$/)
  })

  it.each([
    ['sticker-pack', 'SP'],
    ['trail-headlamp', 'TH'],
    ['a', 'A'],
    ['cedar-soap-bar', 'CS'],
    ['--x--y-', 'XY'],
    ['42', '4'],
  ])('draws %s with %s', async (key, initials) => {
    const response = await image(key)
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain(`>${initials}</text>`)
  })

  it('draws every seeded product image the catalogue points at', async () => {
    for (const { image } of sandboxCatalogue(PUBLIC_URL)) {
      const path = new URL(image).pathname
      const response = await server.app.inject({ method: 'GET', url: path })
      expect(response.statusCode, path).toBe(200)
    }
  })

  it('gives a key the same colour every time and spreads keys over several colours', async () => {
    const keys = ['linen-overshirt', 'merino-crew-socks', 'rosehip-face-oil', 'cedar-soap-bar']
    const fills = await Promise.all(keys.map(async (key) => fillOf((await image(key)).body)))
    expect(await Promise.all(keys.map(async (key) => fillOf((await image(key)).body)))).toEqual(
      fills,
    )
    expect(new Set(fills).size).toBeGreaterThan(1)
  })

  it.each([
    'Linen-Overshirt',
    'linen_overshirt',
    'linen.overshirt',
    'a'.repeat(61),
    '%3Cscript%3E',
    'caf%C3%A9',
    '%20',
  ])('answers 404 for the key %s', async (key) => {
    const response = await image(key)
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'There is no product image at this address',
    })
  })

  it('accepts a key of 60 characters', async () => {
    expect((await image('a'.repeat(60))).statusCode).toBe(200)
  })

  it.each(['/images/products/linen-overshirt.png', '/images/products/linen-overshirt'])(
    'answers 404 for another kind of address: %s',
    async (url) => {
      const response = await server.app.inject({ method: 'GET', url })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ error: 'not_found' })
    },
  )
})

// JSON with bytes: the browser host's transport carries Uint8Array (the receipt PDF) as base64,
// which Electron's structured clone does natively.

const BYTES_KEY = '$bytes'

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Uint8Array ? { [BYTES_KEY]: bytesToBase64(item) } : item,
  )
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) => {
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const bytes = (item as Record<string, unknown>)[BYTES_KEY]
      if (typeof bytes === 'string' && Object.keys(item).length === 1) return base64ToBytes(bytes)
    }
    return item
  })
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  }
  return btoa(binary)
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The parsed JSON, or undefined (which no answer schema accepts) when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

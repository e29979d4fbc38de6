/**
 * A style property as the component declared it on the element (Mantine writes its colours as
 * `var(--mantine-color-…)` in the style attribute). Not the computed value: these tests load no
 * Mantine stylesheet, so the variable it names is undefined, and jsdom (from 31, as CSS says)
 * computes a property whose `var()` cannot be resolved as empty.
 */
export function declaredStyle(element: Element | null, property: string): string {
  if (!(element instanceof HTMLElement)) throw new Error(`No element to read ${property} of`)
  return element.style.getPropertyValue(property)
}

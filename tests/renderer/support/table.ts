import { screen, within } from '@testing-library/react'
import { afterAll, beforeAll, onTestFinished, vi } from 'vitest'

/** The page's table rows that hold cells: the header row and any virtualizer spacers left out. */
export const dataRows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)

/** The row showing `text` exactly, in one of its cells. */
export const rowOf = (text: string) => {
  const row = dataRows().find((candidate) => within(candidate).queryByText(text))
  if (!row) throw new Error(`No row for ${text}`)
  return row
}

export const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent)

/**
 * jsdom lays nothing out, so every element is 0 px tall and a virtualized table would render no
 * row. For the file's tests, the scroller gets a window's box (800 × 1000 px, what the virtualizer
 * reads of its scroll element) and, given `rowHeight`, each row group that height, as measured in
 * a browser: the rows that would be in view are rendered.
 */
export function layOutAsInAWindow(rowHeight?: number): void {
  beforeAll(() => {
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(800)
    vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    if (rowHeight !== undefined) {
      vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(rowHeight)
    }
  })
  afterAll(() => vi.restoreAllMocks())
}

/**
 * For the rest of the test, the window is under 992 px wide as the console's media queries see it
 * (`(max-width: 61.99em)` matches): the tables that fold at that width fold.
 */
export function narrowWindow(): void {
  const matchMedia = vi.mocked(window.matchMedia)
  const wide = matchMedia.getMockImplementation()!
  onTestFinished(() => void matchMedia.mockImplementation(wide))
  matchMedia.mockImplementation((query: string) => ({
    ...wide(query),
    matches: query === '(max-width: 61.99em)',
  }))
}

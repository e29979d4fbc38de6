import { screen, within } from '@testing-library/react'

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

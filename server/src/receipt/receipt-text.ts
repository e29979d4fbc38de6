// The receipt's words and numbers as the PDF prints them: only characters its standard fonts have,
// dates and amounts written by hand, so that the same data always gives the same bytes.

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const

/**
 * The standard PDF fonts only have WinAnsi glyphs; pdfkit writes anything else as bytes that show up
 * as unrelated characters. So every kind of space (tab, line break, no-break space…) becomes a plain
 * space, and any other character outside WinAnsi, control characters included, becomes '?'.
 */
const NOT_WIN_ANSI = /[^\x20-\x7e\xa1-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu

export function pdfText(text: string): string {
  return text.normalize('NFC').replace(/\s/g, ' ').replace(NOT_WIN_ANSI, '?')
}

/**
 * Dates are written by hand in UTC, so that the bytes depend neither on the server's time zone nor
 * on its ICU version (newer ICU puts a narrow no-break space, which Helvetica lacks, before "AM").
 */
export function formatDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const pad = (n: number) => String(n).padStart(2, '0')
  const month = MONTHS[date.getUTCMonth()] ?? ''
  return `${date.getUTCDate()} ${month} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`
}

/**
 * Amounts arrive as decimal strings already carrying the currency's decimals; grouping the digits
 * of the string itself prints exactly what the API states, with no float round trip and no second
 * guess at how many decimals the currency has.
 */
export function formatMoney(currency: string, amount: string): string {
  const decimal = /^(-?)(\d+)(\.\d+)?$/.exec(amount)
  const grouped = decimal
    ? `${decimal[1]}${(decimal[2] ?? '').replace(/\B(?=(\d{3})+$)/g, ',')}${decimal[3] ?? ''}`
    : amount
  return pdfText(`${currency} ${grouped}`)
}

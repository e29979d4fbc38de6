import PDFDocument from 'pdfkit'
import { formatDate, formatMoney, pdfText } from './receipt-text'

export interface ReceiptData {
  /** The product name, passed in so that it stays in the server's one constant. */
  productName: string
  status: 'PREVIEW' | 'PROCESSED'
  /** ISO date-time; shown when the transfer is processed. */
  processedAt: string | null
  /** ISO date-time; the PDF's CreationDate and ModDate, so that the same data gives the same bytes. */
  generatedAt: string
  creatorOrder: {
    /** Numeric order id, e.g. '1001'. */
    id: string
    /** Order name, e.g. '#1001'. */
    name: string
    /** ISO date-time. */
    createdAt: string
    storeShop: string
    customer: { name: string | null; email: string | null; address: string[] }
  }
  currency: string
  brands: {
    brandStoreShop: string
    /** Null until the brand order exists; shown as "pending". */
    brandOrderId: string | null
    /** Decimal strings already formatted for the currency, e.g. '102.00'. */
    brandAmount: string
    creatorCommissionAmount: string
    tandemCommissionAmount: string
  }[]
  totals: Totals
  /**
   * What the Stripe transfers moved, when the order's charge settled in another currency: the
   * same brands, in order, converted at the charge's exchange rate. Null when nothing was
   * converted.
   */
  settlement: {
    currency: string
    /** Stripe's rate: an amount in `currency` of the order times it is the settled amount. */
    exchangeRate: string
    brands: Amounts[]
    totals: Totals
  } | null
  /**
   * What the refunds since the transfer took back from each brand's part they touched, in the
   * order's currency, with the units refunded; null when nothing was refunded.
   */
  refunds: {
    brands: (Amounts & { brandStoreShop: string; refundedUnits: number })[]
    totals: Totals
  } | null
  /**
   * Each reversal of a party's transfer since, each amount Stripe would not take back (owed by
   * the party) and each debt deducted from a later transfer, oldest first, in the currency it
   * moved in; empty when there are none.
   */
  moneyBack: {
    /** ISO date-time. */
    at: string
    kind: 'REVERSAL' | 'OWED' | 'DEDUCTION'
    storeShop: string
    stripeId: string | null
    /** A decimal string formatted for `currency`. */
    amount: string
    currency: string
  }[]
}

interface Amounts {
  brandAmount: string
  creatorCommissionAmount: string
  tandemCommissionAmount: string
}

interface Totals {
  totalBrandAmount: string
  totalCreatorCommissionAmount: string
  totalTandemCommissionAmount: string
}

const PAGE_SIZE = 'A4'
const MARGIN = 50
const FONT = 'Helvetica'
const FONT_BOLD = 'Helvetica-Bold'
const INK = '#111827'
const MUTED = '#6b7280'
const RULE = '#d1d5db'
const HEADER_FILL = '#f3f4f6'
const PREVIEW_COLOR = '#b45309'
const PROCESSED_COLOR = '#047857'

const TABLE_FONT_SIZE = 9
const CELL_PAD_X = 4
const CELL_PAD_Y = 5

/**
 * A table's column and its width in points. Text wraps; an id or an amount is never split (kept on
 * one line, shrunk if it would not fit), and amounts are right-aligned.
 */
interface Column {
  heading: string
  width: number
  holds?: 'text' | 'id' | 'amount'
}

/** Store | brand order (or units refunded) | brand amount | creator commission | tandem commission. */
const brandColumns = (productName: string, second = 'Brand order'): Column[] => [
  { heading: 'Brand store', width: 170 },
  { heading: second, width: 84 },
  { heading: 'Brand amount', width: 80, holds: 'amount' },
  { heading: 'Creator commission', width: 80, holds: 'amount' },
  { heading: pdfText(`${productName} commission`), width: 80, holds: 'amount' },
]

/** A date, "Reversed" and a sandbox store's domain fit on one line; an id shrinks to fit. */
const MONEY_BACK_COLUMNS: Column[] = [
  { heading: 'Date', width: 108 },
  { heading: 'What', width: 47 },
  { heading: 'Store', width: 142 },
  { heading: 'Stripe ID', width: 137, holds: 'id' },
  { heading: 'Amount', width: 60, holds: 'amount' },
]

const MONEY_BACK_WORDS: Record<ReceiptData['moneyBack'][number]['kind'], string> = {
  REVERSAL: 'Reversed',
  OWED: 'Owed',
  DEDUCTION: 'Deducted',
}
/** Room kept at the foot of every page for the page footer. */
const FOOTER_HEIGHT = 20

function parseGeneratedAt(iso: string): Date {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) throw new RangeError(`generatedAt is not a date: ${iso}`)
  return date
}

type Doc = PDFKit.PDFDocument

interface Row {
  cells: readonly string[]
  bold: boolean
}

/** Renders the order transfer receipt as PDF bytes; identical data gives identical bytes. */
export function renderReceiptPdf(data: ReceiptData): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    try {
      const generatedAt = parseGeneratedAt(data.generatedAt)
      const doc = new PDFDocument({
        size: PAGE_SIZE,
        margin: MARGIN,
        font: FONT,
        // Measured: leaving the streams uncompressed saves under a millisecond a render but makes a
        // two-brand receipt 3.4 times larger (8.6 kB against 2.6 kB), seven times at 40 brands.
        compress: true,
        // Footers say "Page n of m", which is only known once every page exists.
        bufferPages: true,
        info: {
          Title: pdfText(`Order transfer receipt ${data.creatorOrder.name}`),
          Author: pdfText(data.productName),
          Creator: pdfText(data.productName),
          // pdfkit derives the trailer's file ID from the info dictionary, so fixing the dates here
          // is what makes the output reproducible.
          CreationDate: generatedAt,
          ModDate: generatedAt,
        },
      })
      const chunks: Buffer[] = []
      doc.on('data', (chunk: Buffer) => chunks.push(chunk))
      doc.on('end', () => resolve(Buffer.concat(chunks)))
      doc.on('error', reject)

      drawHeading(doc, data)
      drawOrderAndCustomer(doc, data)
      drawTables(doc, data)
      drawFooters(doc, data)
      doc.end()
    } catch (error) {
      reject(error)
    }
  })
}

function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right
}

/** The lowest y that content may reach on a page, above the footer. */
function contentBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom - FOOTER_HEIGHT
}

function drawHeading(doc: Doc, data: ReceiptData): void {
  const left = doc.page.margins.left
  let y = doc.page.margins.top
  doc.font(FONT_BOLD).fontSize(22).fillColor(INK).text(pdfText(data.productName), left, y)
  y += 28
  doc.font(FONT).fontSize(14).fillColor(MUTED).text('Order transfer receipt', left, y)
  y += 24
  const status =
    data.status === 'PREVIEW'
      ? 'Preview — not yet processed'
      : data.processedAt === null
        ? 'Processed'
        : `Processed on ${pdfText(formatDate(data.processedAt))}`
  doc
    .font(FONT_BOLD)
    .fontSize(11)
    .fillColor(data.status === 'PREVIEW' ? PREVIEW_COLOR : PROCESSED_COLOR)
    .text(status, left, y)
  y += 22
  doc
    .moveTo(left, y)
    .lineTo(left + contentWidth(doc), y)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke()
  doc.y = y + 14
}

function drawOrderAndCustomer(doc: Doc, data: ReceiptData): void {
  const { creatorOrder } = data
  const left = doc.page.margins.left
  const half = contentWidth(doc) / 2
  const top = doc.y

  const orderFields: [string, string][] = [
    ['Order', creatorOrder.name],
    ['Order ID', creatorOrder.id],
    ['Date', formatDate(creatorOrder.createdAt)],
    ['Store', creatorOrder.storeShop],
    ['Currency', data.currency],
  ]
  const labelWidth = 62
  let y = drawSectionTitle(doc, 'Creator order', left, top)
  for (const [label, value] of orderFields) {
    doc.font(FONT).fontSize(10).fillColor(MUTED).text(label, left, y)
    doc
      .font(FONT)
      .fillColor(INK)
      .text(pdfText(value), left + labelWidth, y, { width: half - labelWidth - 12 })
    y = Math.max(y + 15, doc.y + 2)
  }
  const orderBottom = y

  const { customer } = creatorOrder
  const customerLines = [customer.name, customer.email, ...customer.address].filter(
    (line): line is string => line !== null && line.trim() !== '',
  )
  y = drawSectionTitle(doc, 'Customer', left + half, top)
  doc.font(FONT).fontSize(10)
  if (customerLines.length === 0) {
    doc.fillColor(MUTED).text('Not provided', left + half, y)
    y += 15
  }
  for (const line of customerLines) {
    doc.fillColor(INK).text(pdfText(line), left + half, y, { width: half })
    y = Math.max(y + 15, doc.y + 2)
  }
  doc.y = Math.max(orderBottom, y) + 14
}

function drawSectionTitle(doc: Doc, title: string, x: number, y: number): number {
  doc.font(FONT_BOLD).fontSize(10).fillColor(INK).text(title, x, y)
  return y + 18
}

/**
 * The brands' table in the order's currency, then (when converted) in the settlement currency;
 * then, when there were refunds since the transfer, what they took back and the reversals.
 */
function drawTables(doc: Doc, data: ReceiptData): void {
  const columns = brandColumns(data.productName)
  drawAmountsTable(doc, 'Brand transfers', columns, data.currency, data.brands, data.totals)
  const { settlement, refunds } = data
  if (settlement) {
    doc.y += 14
    const title = `Paid out in ${settlement.currency}, the charge's settlement currency, at ${data.currency} 1 = ${settlement.currency} ${settlement.exchangeRate}`
    const brands = data.brands.map((brand, index) => ({ ...brand, ...settlement.brands[index]! }))
    drawAmountsTable(doc, pdfText(title), columns, settlement.currency, brands, settlement.totals)
  }
  if (refunds) {
    doc.y += 14
    const title = `Refunded since the transfer: what each brand's part gives back, at the rates frozen then`
    const brands = refunds.brands.map((brand) => ({
      ...brand,
      brandOrderId: String(brand.refundedUnits),
    }))
    const refundColumns = brandColumns(data.productName, 'Units refunded')
    drawAmountsTable(doc, pdfText(title), refundColumns, data.currency, brands, refunds.totals)
  }
  if (data.moneyBack.length > 0) {
    doc.y += 14
    drawMoneyBack(doc, data.moneyBack)
  }
}

/** A table of brands' amounts and their totals, in `currency`. */
function drawAmountsTable(
  doc: Doc,
  title: string,
  columns: readonly Column[],
  currency: string,
  brands: ReceiptData['brands'],
  totalsOf: Totals,
): void {
  const money = (amount: string) => formatMoney(currency, amount)
  const rows: Row[] = brands.map((brand) => ({
    cells: [
      pdfText(brand.brandStoreShop),
      brand.brandOrderId === null ? 'pending' : pdfText(brand.brandOrderId),
      money(brand.brandAmount),
      money(brand.creatorCommissionAmount),
      money(brand.tandemCommissionAmount),
    ],
    bold: false,
  }))
  const totals: Row = {
    cells: [
      'Total',
      '',
      money(totalsOf.totalBrandAmount),
      money(totalsOf.totalCreatorCommissionAmount),
      money(totalsOf.totalTandemCommissionAmount),
    ],
    bold: true,
  }
  drawTable(doc, title, columns, [...rows, totals])
}

/** Each reversal, amount owed and deduction since the transfer, and what "Owed" means. */
function drawMoneyBack(doc: Doc, moneyBack: ReceiptData['moneyBack']): void {
  const rows: Row[] = moneyBack.map((each) => ({
    cells: [
      pdfText(formatDate(each.at)),
      MONEY_BACK_WORDS[each.kind],
      pdfText(each.storeShop),
      each.stripeId === null ? '' : pdfText(each.stripeId),
      formatMoney(each.currency, each.amount),
    ],
    bold: false,
  }))
  drawTable(doc, 'Reversals since the transfer', MONEY_BACK_COLUMNS, rows)
  if (moneyBack.some((each) => each.kind === 'OWED')) {
    doc.y += 6
    doc
      .font(FONT)
      .fontSize(TABLE_FONT_SIZE)
      .fillColor(MUTED)
      .text(
        "Owed: Stripe could not take the amount back from the store's balance, so the store owes it.",
        doc.page.margins.left,
        doc.y,
        { width: contentWidth(doc) },
      )
  }
}

function drawTable(doc: Doc, title: string, columns: readonly Column[], rows: Row[]): void {
  doc.y = drawSectionTitle(doc, title, doc.page.margins.left, doc.y)
  drawHeaderRow(doc, columns)
  for (const row of rows) drawBodyRow(doc, row, columns)
}

function drawHeaderRow(doc: Doc, columns: readonly Column[]): void {
  doc.font(FONT_BOLD).fontSize(TABLE_FONT_SIZE)
  let height = 0
  for (const column of columns) {
    height = Math.max(height, doc.heightOfString(column.heading, { width: cellWidth(column) }))
  }
  height += 2 * CELL_PAD_Y
  const left = doc.page.margins.left
  const y = doc.y
  doc.rect(left, y, contentWidth(doc), height).fillColor(HEADER_FILL).fill()
  doc.fillColor(INK)
  let x = left
  for (const column of columns) {
    doc.text(column.heading, x + CELL_PAD_X, y + CELL_PAD_Y, {
      width: cellWidth(column),
      align: column.holds === 'amount' ? 'right' : 'left',
    })
    x += column.width
  }
  doc.y = y + height
}

/**
 * Draws a row, first moving to a new page (with the header repeated) when it would not fit. Text
 * wraps; ids and amounts stay on one line, shrunk if they would not fit, so that none is ever split.
 */
function drawBodyRow(doc: Doc, row: Row, columns: readonly Column[]): void {
  const font = row.bold ? FONT_BOLD : FONT
  doc.font(font).fontSize(TABLE_FONT_SIZE)
  let height = doc.currentLineHeight()
  for (const [index, column] of columns.entries()) {
    const text = row.cells[index] ?? ''
    const wraps = (column.holds ?? 'text') === 'text'
    if (wraps && doc.widthOfString(text) > cellWidth(column)) {
      height = Math.max(height, doc.heightOfString(text, { width: cellWidth(column) }))
    }
  }
  height += 2 * CELL_PAD_Y
  if (doc.y + height > contentBottom(doc)) {
    doc.addPage()
    drawHeaderRow(doc, columns)
    doc.font(font)
  }

  const left = doc.page.margins.left
  const y = doc.y
  doc.fillColor(INK)
  let x = left
  for (const [index, column] of columns.entries()) {
    const text = row.cells[index] ?? ''
    const width = cellWidth(column)
    doc.fontSize(TABLE_FONT_SIZE)
    const natural = doc.widthOfString(text)
    if ((column.holds ?? 'text') === 'text') {
      // Most cells fit on one line; only those that do not pay for pdfkit's line wrapper.
      const fits = natural <= width
      doc.text(text, x + CELL_PAD_X, y + CELL_PAD_Y, fits ? { lineBreak: false } : { width })
    } else {
      if (natural > width) doc.fontSize((TABLE_FONT_SIZE * width) / natural)
      const indent = column.holds === 'amount' ? width - doc.widthOfString(text) : 0
      doc.text(text, x + CELL_PAD_X + indent, y + CELL_PAD_Y, { lineBreak: false })
    }
    x += column.width
  }

  // Body rows are underlined; the totals row is set off by a stronger rule above it.
  const ruleY = row.bold ? y : y + height
  doc
    .moveTo(left, ruleY)
    .lineTo(left + contentWidth(doc), ruleY)
    .lineWidth(row.bold ? 1 : 0.5)
    .strokeColor(row.bold ? INK : RULE)
    .stroke()
  doc.y = y + height
}

function cellWidth(column: Column): number {
  return column.width - 2 * CELL_PAD_X
}

function drawFooters(doc: Doc, data: ReceiptData): void {
  const range = doc.bufferedPageRange()
  const label = pdfText(
    `${data.productName} · Order transfer receipt ${data.creatorOrder.name} · generated ${formatDate(data.generatedAt)}`,
  )
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index)
    const left = doc.page.margins.left
    const y = doc.page.height - doc.page.margins.bottom - FOOTER_HEIGHT + 8
    const pageLabel = `Page ${index - range.start + 1} of ${range.count}`
    doc.font(FONT).fontSize(8).fillColor(MUTED)
    doc.text(label, left, y, { lineBreak: false })
    doc.text(pageLabel, left + contentWidth(doc) - doc.widthOfString(pageLabel), y, {
      lineBreak: false,
    })
  }
}

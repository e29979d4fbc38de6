// Amounts are kept in minor units and written as Shopify writes them: a decimal string with the
// currency's own number of decimals ("68.00", but "6800" for yen).

const ZERO_DECIMAL_CURRENCIES = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW'])
const THREE_DECIMAL_CURRENCIES = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND'])

function currencyDecimals(currency: string): number {
  if (ZERO_DECIMAL_CURRENCIES.has(currency)) return 0
  return THREE_DECIMAL_CURRENCIES.has(currency) ? 3 : 2
}

/** Integer arithmetic only, so that 925 cents is "9.25" and never "9.250000000001". */
export function formatMinor(minor: number, currency: string): string {
  const decimals = currencyDecimals(currency)
  if (decimals === 0) return String(minor)
  const sign = minor < 0 ? '-' : ''
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0')
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/** Shopify's MoneyBag: without currency conversion both sides are the same money. */
export function moneyBag(minor: number, currency: string) {
  const money = { amount: formatMinor(minor, currency), currencyCode: currency }
  return { shopMoney: money, presentmentMoney: money }
}

/**
 * A Money input ("15.00", "15", 15.5) in minor units, or null when it is not an amount. Digits past
 * the currency's own are rounded half up, as a decimal amount is rounded to the cent.
 */
export function parseMinor(amount: string | number, currency: string): number | null {
  const text = typeof amount === 'number' ? String(amount) : amount.trim()
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (!match || (match[2] === '' && !match[3])) return null
  const decimals = currencyDecimals(currency)
  const fraction = (match[3] ?? '').padEnd(decimals + 1, '0')
  const units = Number(`${match[2] || '0'}${fraction.slice(0, decimals)}`)
  const rounded = units + (Number(fraction[decimals]) >= 5 ? 1 : 0)
  return match[1] ? -rounded : rounded
}

const SYMBOLS: Record<string, string> = {
  USD: '$',
  CAD: '$',
  AUD: '$',
  NZD: '$',
  EUR: '€',
  GBP: '£',
}

/**
 * An amount as Shopify writes it in a message: "$25.00". Shopify uses the shop's money format; a
 * Canadian shop's message reads "$25.00" too. Currencies without a symbol here read "25.00 CHF".
 */
export function moneyText(minor: number, currency: string): string {
  const symbol = SYMBOLS[currency]
  return symbol
    ? `${symbol}${formatMinor(minor, currency)}`
    : `${formatMinor(minor, currency)} ${currency}`
}

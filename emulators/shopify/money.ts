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

import { MAX_PRICE } from '../constants.js';
import { V } from '../messages.js';

export const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The texts of one money field: a price must be at least a cent, a cost may be 0. */
interface MoneyRules {
  required: string;
  invalid: string;
  negative: string;
  min: string;
  max: string;
  decimals: string;
  minCents: number;
}

const PRICE_RULES: MoneyRules = {
  required: V.priceRequired,
  invalid: V.priceInvalid,
  negative: V.priceMin,
  min: V.priceMin,
  max: V.priceMax,
  decimals: V.priceDecimals,
  minCents: 1,
};

const COST_RULES: MoneyRules = {
  required: V.costInvalid,
  invalid: V.costInvalid,
  negative: V.costNegative,
  min: V.costNegative,
  max: V.costMax,
  decimals: V.costDecimals,
  minCents: 0,
};

/**
 * Parses an amount of money given as a JSON number or as form text into integer cents, without
 * ever going through binary floating point arithmetic: "19.99" becomes 1999 exactly.
 */
function parseMoneyToCents(value: unknown, rules: MoneyRules): number | { error: string } {
  if (isBlank(value)) return { error: rules.required };
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (typeof value === 'number' && !Number.isFinite(value))) {
    return /^-\d/.test(text) ? { error: rules.negative } : { error: rules.invalid };
  }
  const [, whole = '0', fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > 2) return { error: rules.decimals };
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (cents < rules.minCents) return { error: rules.min };
  if (cents > Math.round(MAX_PRICE * 100)) return { error: rules.max };
  return cents;
}

/** A price in cents: at least a cent, at most MAX_PRICE, at most 2 decimals. */
export const parsePriceToCents = (value: unknown) => parseMoneyToCents(value, PRICE_RULES);

/** A cost in cents, like a price but 0 is allowed. */
export const parseCostToCents = (value: unknown) => parseMoneyToCents(value, COST_RULES);

export const centsToPrice = (cents: number) => cents / 100;

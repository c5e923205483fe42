/**
 * decimal.js for sums and differences of amounts (docs/treasury-api.md#conventions: amounts are exact
 * decimal strings, and a float would round them). The library's default precision
 * is 20 significant digits, so two amounts of 18 integer digits and 2
 * decimals already round ("999999999999999999.99" × 2 gives
 * "2000000000000000000.00"). 64 digits hold any sum of up to 10^9 amounts of
 * `DecimalString`'s range (18 integer + 6 fraction digits) exactly.
 *
 * Its own module without zod, so that browser code summing amounts does not
 * pull the contract into its bundle.
 */
import Decimal from "decimal.js";

export const ExactDecimal = Decimal.clone({ precision: 64 });

/** An ExactDecimal value (the class is a decimal.js clone). */
export type ExactDecimal = InstanceType<typeof ExactDecimal>;

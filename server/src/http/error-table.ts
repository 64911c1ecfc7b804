import { DomainError } from '../domain-error.js';
import { AppError, type ErrorCode } from './errors.js';

/** What a response says besides its status: the contract's `message` and `errors` for the code. */
interface Said {
  message?: string | string[];
  errors?: Record<string, string>;
}

/** `D` is what the code's maker (the feature's errors.ts) puts in its details; a test holds the two to each other. */
export interface Rule<D = never> {
  status: ErrorCode;
  says: (details: D) => Said;
}

const rule = <D = unknown>(status: ErrorCode, says: (d: D) => Said): Rule<D> => ({ status, says });

/** A 400 for a value of the request body: `message`, and `errors` naming the field and why. */
const field = <D = unknown>(name: string, code: string, message: (d: D) => string) =>
  rule<D>('badRequest', (d) => ({ message: message(d), errors: { [name]: code } }));
/** A body's reference to a row that does not exist or is out of scope. */
const fieldNotFound = (name: string) => field(name, 'notFound', () => `${name} not found`);
/** A missing or out-of-scope resource: `errors: {<resource>: "notFound"}` and no message, as the contract shows. */
const notFound = (resource: string) => rule('notFound', () => ({ errors: { [resource]: 'notFound' } }));
const forbidden = <D = unknown>(message: (d: D) => string) => rule<D>('forbidden', (d) => ({ message: message(d) }));
const unprocessable = <D = unknown>(message: (d: D) => string) =>
  rule<D>('unprocessable', (d) => ({ message: message(d) }));

/** A quote an order cannot use: a 422 whose `errors.quoteId` names the reason. */
const quote = <D>(reason: string, message: (d: D) => string) =>
  rule<D>('unprocessable', (d) => ({ message: message(d), errors: { quoteId: reason } }));
interface QuotedFor {
  exchangeId: number;
  sourceCurrencyId: number;
  destCurrencyId: number;
}

const REFERENCE_PROBLEM = {
  notFound: 'not found',
  inactive: 'is not active',
  currencyMismatch: 'is for another currency',
};

/** A URL the outbound rules refuse (a webhook's, a rate source's): said alike wherever it is typed in. */
const urlRefused = rule<{ code: string; reason: string }>('badRequest', (d) => ({
  message: [d.reason],
  errors: { url: d.code },
}));

/**
 * The one table from each domain error code (declared in a feature's errors.ts) to its status, message and
 * `errors`. A test holds it to the declared codes: none missing, none extra.
 */
export const DOMAIN_ERRORS = {
  'apiKeys.notFound': notFound('apiKey'),
  'apiKeys.nameEmpty': field('name', 'tooShort', () => 'name should not be empty'),
  'apiKeys.typeNeedsSuperadmin': forbidden<{ type: string }>((d) => `Only a superadmin can create a ${d.type} key`),
  'apiKeys.branchForPersonalKey': field(
    'branchId',
    'notAllowed',
    () => "branchId is not allowed for a personal key: it acts with its staff user's scope",
  ),
  'apiKeys.branchRequired': field<{ type: string }>(
    'branchId',
    'required',
    (d) => `branchId is required for a ${d.type} key`,
  ),
  'apiKeys.branchNotFound': fieldNotFound('branchId'),
  'apiKeys.originsForPublicKeysOnly': field(
    'allowedOrigins',
    'notAllowed',
    () => 'allowedOrigins applies to public keys only: a secret key never belongs in a web page',
  ),
  'apiKeys.notAnOrigin': field<{ value: string }>(
    'allowedOrigins',
    'invalid',
    (d) => `allowedOrigins "${d.value.slice(0, 100)}" is not an origin (scheme://host[:port])`,
  ),
  'apiKeys.expiryInPast': field('expiresAt', 'inPast', () => 'expiresAt must be in the future'),
  'apiKeys.personalKeyLimit': unprocessable<{ limit: number }>(
    (d) =>
      `Personal key limit reached: a staff user may hold at most ${d.limit} active personal keys; revoke one first`,
  ),
  'apiKeys.rollOverlapTooLong': field('expiresAt', 'tooLarge', () => 'expiresAt must be at most 7 days from now'),
  'apiKeys.rollNeedsSuperadmin': forbidden<{ type: string }>(
    (d) => `Only a superadmin can roll a ${d.type} key: a roll issues a new raw key. You may revoke it.`,
  ),
  'apiKeys.rollOfAnotherUsersKey': forbidden(
    () =>
      "Only a superadmin can roll another staff user's personal key: its new raw key would act as that user. You may revoke it.",
  ),
  'apiKeys.rollOfRevokedKey': unprocessable(() => 'A revoked key cannot be rolled'),
  'apiKeys.rollOfExpiredKey': unprocessable(() => 'An expired key cannot be rolled'),
  'apiKeys.alreadyRolled': unprocessable<{ replacement: string }>(
    (d) => `This key was already rolled to ${d.replacement}: roll that key instead`,
  ),

  'branches.notFound': notFound('branch'),
  'branches.nameTaken': field('name', 'alreadyExists', () => 'A branch with this name already exists'),
  'branches.targetRequired': field('branchId', 'required', () => 'branchId is required'),
  'branches.targetNotFound': fieldNotFound('branchId'),

  'exchanges.exchangeNotFound': notFound('exchange'),
  'offers.exchangeFieldNotFound': fieldNotFound('exchangeId'),
  'currencies.currencyNotFound': notFound('currency'),
  'offers.currencyFieldNotFound': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} not found`,
    errors: { [d.field]: 'notFound' },
  })),
  'offers.offerNotFound': notFound('offer'),
  'currencies.tickerTaken': field('ticker', 'alreadyExists', () => 'A currency with this ticker already exists'),
  'exchanges.unknownTimeZone': field<{ timezone: string }>(
    'timezone',
    'invalidValue',
    (d) => `timezone ${d.timezone} is not an IANA time zone`,
  ),
  'exchanges.scheduleDayTwice': rule<{ index: number; dayOfWeek: number }>('badRequest', (d) => ({
    message: `schedule: day ${d.dayOfWeek} appears twice`,
    errors: { [`schedule.${d.index}.dayOfWeek`]: 'duplicate' },
  })),
  'exchanges.scheduleTimeMissing': rule<{ index: number; field: string }>('badRequest', (d) => ({
    message: `schedule.${d.index}.${d.field} is required on an open day`,
    errors: { [`schedule.${d.index}.${d.field}`]: 'required' },
  })),
  'exchanges.scheduleClosesBeforeOpening': rule<{ index: number; openTime: string }>('badRequest', (d) => ({
    message: `schedule.${d.index}.closeTime must be after openTime ${d.openTime}; 00:00 closes at midnight`,
    errors: { [`schedule.${d.index}.closeTime`]: 'invalidValue' },
  })),
  'offers.notADecimal': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} must be a non-negative decimal with at most 20 integer digits and 18 decimal places`,
    errors: { [d.field]: 'invalidValue' },
  })),
  'offers.rateNotPositive': field('rate', 'tooSmall', () => 'rate must be greater than 0'),
  'offers.maxAmountNotPositive': field('maxAmount', 'tooSmall', () => 'maxAmount must be greater than 0'),
  'offers.minAboveMax': field<{ minAmount: string; maxAmount: string }>(
    'minAmount',
    'aboveMaximum',
    (d) => `minAmount ${d.minAmount} must not be greater than maxAmount ${d.maxAmount}`,
  ),
  'offers.offerPairSameCurrency': field(
    'currency2Id',
    'sameAsCurrency1',
    () => 'currency2Id must differ from currency1Id',
  ),
  'offers.offerPairTaken': field(
    'offer',
    'alreadyExists',
    () => 'This exchange already has an offer for this currency pair; change that one instead',
  ),
  'offers.rateRequired': field('rate', 'required', () => 'rate is required for an offer with a fixed rate'),
  'offers.rateSetBySource': field(
    'rate',
    'notAllowed',
    () => 'rate is set by the rate source when pricing.mode is source: leave it out, or set pricing.mode to fixed',
  ),
  'offers.rateSourceNotFound': fieldNotFound('pricing.sourceId'),
  'offers.pricingSameCurrency': field(
    'pricing.quote',
    'sameAsBase',
    () => 'pricing.quote must differ from pricing.base',
  ),
  'offers.marginOutOfRange': field(
    'pricing.marginPercent',
    'outOfRange',
    () => 'pricing.marginPercent must be above -100 and at most 1000',
  ),
  'offers.pricingNotPositive': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} must be greater than 0`,
    errors: { [d.field]: 'tooSmall' },
  })),
  'offers.floorAboveCeiling': field<{ floor: string; ceiling: string }>(
    'pricing.floor',
    'aboveMaximum',
    (d) => `pricing.floor ${d.floor} must not be greater than pricing.ceiling ${d.ceiling}`,
  ),
  'offers.pairNotQuoted': rule<{ base: string; quote: string }>('unprocessable', (d) => ({
    message: `The rate source has not published ${d.base}/${d.quote} (directly, inverted or through a common currency) in its last successful read: wait for it to read, or choose another pair`,
    errors: { pricing: 'notQuoted' },
  })),
  'offers.noMarketRate': rule<{ reason: string }>('unprocessable', (d) => ({
    message:
      d.reason === 'tooLarge'
        ? 'The rate made from the source would exceed the largest rate an offer can hold'
        : 'The rate made from the source would not be greater than 0: check marginPercent and decimals',
    errors: { pricing: 'noRate' },
  })),
  'offers.badRange': field('from', 'aboveMaximum', () => 'from must be a date-time not after to'),
  'offers.notSuspended': rule('conflict', () => ({
    message: 'This offer is not suspended: only a suspended offer can be resumed',
  })),
  'cash.exchangeNotFound': notFound('exchange'),
  'cash.currencyNotFound': notFound('currency'),
  'cash.positionNotFound': notFound('position'),
  'cash.notADecimal': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} must be a decimal number with at most 20 integer and 18 fractional digits`,
    errors: { [d.field]: 'notADecimal' },
  })),
  'cash.notPositive': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} must be greater than 0`,
    errors: { [d.field]: 'notPositive' },
  })),
  'cash.tooManyDecimals': rule<{ field: string; decimals: number; currency: string }>('badRequest', (d) => ({
    message: `${d.field} has more than ${d.decimals} decimal places, the precision of ${d.currency}`,
    errors: { [d.field]: 'tooManyDecimals' },
  })),
  'cash.belowHeld': field<{ held: string; available: string; currency: string }>(
    'amount',
    'belowHeld',
    (d) =>
      `amount would leave the balance below the ${d.held} ${d.currency} held by open orders; ${d.available} ${d.currency} is available`,
  ),
  'cash.insufficientReserve': rule<{ field: string; available: string; currency: string }>('badRequest', (d) => ({
    message: `${d.field} exceeds the reserve of this exchange: ${d.available} ${d.currency} is available`,
    errors: { [d.field]: 'insufficientReserve' },
  })),
  'cash.transferExchangeNotFound': rule<{ field: string }>('badRequest', (d) => ({
    message: `${d.field} not found`,
    errors: { [d.field]: 'notFound' },
  })),
  'cash.transferSameExchange': field(
    'toExchangeId',
    'sameAsSource',
    () => 'toExchangeId must differ from fromExchangeId',
  ),
  'cash.transferAcrossBranches': field(
    'toExchangeId',
    'otherBranch',
    () => 'A transfer moves cash between exchanges of one branch',
  ),

  'catalog.quoteSameCurrency': field(
    'destCurrencyId',
    'sameAsSource',
    () => 'destCurrencyId must differ from sourceCurrencyId',
  ),
  // The 404's `errors` is the contract's; its sentence says why, as an order's 400 for the same cause does.
  'catalog.quoteExchangeNotFound': rule('notFound', () => ({
    message: "exchange not found: the key's branch has no active exchange with this id",
    errors: { exchange: 'notFound' },
  })),
  'catalog.quoteOfferNotFound': rule('notFound', () => ({
    message: 'offer not found: the exchange has no active offer between these currencies, in either direction',
    errors: { offer: 'notFound' },
  })),
  'catalog.quoteAmountRefused': rule<{ problem: string; message: (field: string) => string }>('badRequest', (d) => ({
    message: d.message('amount'),
    errors: { amount: d.problem },
  })),

  'clients.notFound': notFound('client'),
  'clients.invalidFields': rule<{ problems: Array<{ field: string; code: string; message: string }> }>(
    'badRequest',
    (d) => ({
      message: d.problems.map((p) => p.message),
      errors: Object.fromEntries(d.problems.map((p) => [p.field, p.code])),
    }),
  ),
  'clients.branchNotAllowed': field(
    'branchId',
    'notAllowed',
    () => 'branchId is only accepted from a key that reaches every branch',
  ),
  'clients.branchRequired': field('branchId', 'required', () => 'branchId is required: this key reaches every branch'),
  'clients.branchNotFound': fieldNotFound('branchId'),
  'clients.noExchangeInReach': forbidden(() => 'This key reaches no exchange to associate the client with'),
  'clients.emailTaken': field('email', 'alreadyExists', () => 'email is already used by another client of this branch'),

  'events.cursorInvalid': field('after', 'invalid', () => 'after must be a cursor returned as `next` by this endpoint'),

  'idempotency.keyMalformed': field(
    'Idempotency-Key',
    'invalid',
    () => 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  ),
  'idempotency.keyReusedForAnotherRequest': unprocessable(
    () =>
      'This Idempotency-Key was already used with a different request (method, path or body); use a new key for a new request',
  ),
  'idempotency.stillInProgress': rule('conflict', () => ({
    message: 'A request with this Idempotency-Key is still being processed; retry after it has finished',
  })),

  'lists.cursorInvalid': field(
    'cursor',
    'invalidValue',
    () => 'cursor is not valid for this list and sort; use meta.nextCursor of the previous page',
  ),

  'orders.notFound': notFound('order'),
  'orders.quoteForOfferOnly': field('quoteId', 'notAllowed', () => 'quoteId is for offer orders only'),
  'orders.quoteWithAmount': rule<{ field: string }>('badRequest', (d) => ({
    message: 'give either quoteId or an amount, not both: the quote fixes both amounts',
    errors: { [d.field]: 'notAllowed' },
  })),
  'orders.bothAmounts': field(
    'exchangeAmount',
    'notAllowed',
    () => 'give either clientAmount or exchangeAmount for an offer order, not both',
  ),
  'orders.amountMissing': field(
    'clientAmount',
    'required',
    () => 'clientAmount or exchangeAmount is required for an offer order',
  ),
  'orders.finopAmountsMissing': rule<{ fields: string[] }>('badRequest', (d) => ({
    message: d.fields.map((f) => `${f} is required for a finop order`),
    errors: Object.fromEntries(d.fields.map((f) => [f, 'required'])),
  })),
  'orders.tooManyDecimals': rule<{ field: string; decimals: number; currency: string }>('badRequest', (d) => ({
    message: `${d.field} has more than ${d.decimals} decimal places, the precision of ${d.currency}`,
    errors: { [d.field]: 'tooManyDecimals' },
  })),
  'orders.sameCurrency': field('currency2', 'sameAsSource', () => 'currency2 must differ from currency1'),
  'orders.cashboxNotFound': field('cashbox', 'notFound', () => 'cashbox not found'),
  'orders.offerNotFound': field(
    'offer',
    'notFound',
    () => 'offer not found: the cashbox has no active offer for this currency pair',
  ),
  'orders.amountRefused': rule<{ field: string; problem: string; message: (field: string) => string }>(
    'badRequest',
    (d) => ({
      message: d.message(d.field),
      errors: { [d.field]: d.problem },
    }),
  ),
  // Every unusable reference at once, each in its own words.
  'orders.unusableReferences': rule<{
    problems: Array<{ field: string; code: 'notFound' | 'inactive' | 'currencyMismatch' }>;
  }>('badRequest', (d) => ({
    message: d.problems.map((p) => `${p.field} ${REFERENCE_PROBLEM[p.code]}`),
    errors: Object.fromEntries(d.problems.map((p) => [p.field, p.code])),
  })),
  'orders.moveRefused': unprocessable<{ reason: string }>((d) => d.reason),
  'orders.changedConcurrently': unprocessable<{ id: number }>((d) => `Order ${d.id} changed concurrently; retry`),

  'paymentMethods.notFound': notFound('paymentMethod'),
  'paymentMethods.exchangeNotFound': fieldNotFound('exchangeId'),
  'paymentMethods.currencyNotFound': fieldNotFound('currencyId'),
  'paymentMethods.nameTaken': field(
    'name',
    'alreadyExists',
    () => 'A payment method with this name already exists for the same exchange and currency',
  ),

  'quotes.notFound': quote<{ id: string }>('notFound', (d) => `quote ${d.id} does not exist`),
  'quotes.foreign': quote<{ id: string }>(
    'foreign',
    (d) => `quote ${d.id} belongs to another branch or to an exchange outside this key's scope`,
  ),
  'quotes.used': quote<{ id: string }>('used', (d) => `quote ${d.id} has already been used for an order`),
  'quotes.expired': quote<{ id: string }>('expired', (d) => `quote ${d.id} has expired; take a new quote`),
  'quotes.mismatch': quote<{ id: string; quoted: QuotedFor; ordered: QuotedFor }>(
    'mismatch',
    ({ id, quoted: q, ordered: o }) =>
      `quote ${id} was taken for exchange ${q.exchangeId}, currencies ${q.sourceCurrencyId} → ${q.destCurrencyId}; the order names exchange ${o.exchangeId}, currencies ${o.sourceCurrencyId} → ${o.destCurrencyId}`,
  ),
  'quotes.offerInactive': quote<{ id: string }>(
    'offerInactive',
    (d) => `the exchange no longer has an active offer for this currency pair, so quote ${d.id} cannot be honoured`,
  ),
  'quotes.offerReplaced': quote<{ id: string; offerId: number }>(
    'offerInactive',
    (d) =>
      `offer ${d.offerId}, which quote ${d.id} was priced on, is no longer the exchange's active offer for this currency pair; take a new quote`,
  ),
  'quotes.aboveOfferMaximum': quote<{ maxAmount: string; quoted: string }>(
    'aboveMaximum',
    (d) =>
      `the offer's maxAmount is now ${d.maxAmount}, which no longer covers the quoted ${d.quoted}; take a new quote`,
  ),

  'staff.invalidCredentials': rule('unauthorized', () => ({ message: 'Invalid credentials' })),
  'staff.notFound': notFound('staff'),
  'staff.operatorCannotManageStaff': forbidden(() => 'Forbidden'),
  'staff.onlySuperadminCreatesSuperadmin': forbidden(() => 'Only a superadmin can create a superadmin'),
  'rateSources.notFound': notFound('rateSource'),
  'rateSources.nameTaken': field(
    'name',
    'alreadyExists',
    () => 'A rate source with this name already exists in the branch',
  ),
  'rateSources.urlRefused': urlRefused,
  'rateSources.inUse': rule<{ offers: number }>('conflict', (d) => ({
    message: `The rate source prices ${d.offers} offer${d.offers === 1 ? '' : 's'}: switch ${d.offers === 1 ? 'it' : 'them'} to another source or to a fixed rate first`,
    errors: { rateSource: 'inUse' },
  })),

  'staff.onlySuperadminGrantsSuperadmin': forbidden(() => 'Only a superadmin can grant the superadmin role'),
  'staff.emailTaken': field('email', 'alreadyExists', () => 'A staff user with this email already exists'),
  'staff.ownRoleOrDeactivation': unprocessable(() => 'You cannot change the role of, or deactivate, your own account'),
  'staff.lastActiveSuperadmin': unprocessable(() => 'The last active superadmin cannot be demoted or deactivated'),
  'staff.branchForSuperadmin': field(
    'branchId',
    'notAllowed',
    () => 'branchId is not allowed for a superadmin, who reaches every branch',
  ),
  'staff.branchRequired': field<{ role: string }>(
    'branchId',
    'required',
    (d) => `branchId is required for an ${d.role}`,
  ),
  'staff.branchNotFound': fieldNotFound('branchId'),
  'staff.exchangesForSuperadmin': field(
    'exchangeIds',
    'notAllowed',
    () => 'exchangeIds is not allowed for a superadmin, who reaches every exchange',
  ),
  'staff.exchangesOutsideBranch': field<{ exchangeIds: number[]; branchId: number }>(
    'exchangeIds',
    'notFound',
    (d) => `exchangeIds: ${d.exchangeIds.join(', ')} not found in branch ${d.branchId}`,
  ),

  'webhooks.notFound': notFound('webhook'),
  'webhooks.deliveryNotFound': notFound('delivery'),
  'webhooks.urlRefused': urlRefused,
  'webhooks.limitReached': unprocessable<{ limit: number }>(
    (d) => `Webhook limit reached: an owner may register at most ${d.limit} webhooks; delete one first`,
  ),
  'webhooks.retryOnInactiveWebhook': unprocessable(
    () => 'Webhook is inactive: reactivate it before retrying its deliveries',
  ),
};

// Also the check that every entry is a rule.
const RULES: Readonly<Record<string, Rule>> = DOMAIN_ERRORS;

/** A domain error as the HTTP error the contract gives for it; undefined for a code the table lacks (a bug: a 500). */
export function httpErrorOf(err: DomainError): AppError | undefined {
  const found = Object.hasOwn(RULES, err.code) ? RULES[err.code] : undefined;
  if (!found) return undefined;
  const said = found.says(err.details as never);
  return new AppError(found.status, said.message, said.errors);
}

/** A refusal in the API's terms for a caller outside a request (the CLI): an HTTP error, or a domain error through the table. */
export function asHttpError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  return err instanceof DomainError ? httpErrorOf(err as DomainError<string, object>) : undefined;
}

export { lookupKeys } from './api/keys';
export { branchOptions, currencyOptions, exchangeOptions, nameOf, useLookups } from './hooks/use-lookups';

/** The offer forms' words for the API's names of their fields, as its messages mention them. */
export const OFFER_WORDS = {
  currency1Id: 'the currency the client gives',
  currency2Id: 'the currency the client gets',
  minAmount: 'the minimum',
  maxAmount: 'the maximum',
};

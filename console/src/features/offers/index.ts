export { offerKeys } from './api/keys';
export { NewOfferForm } from './components/NewOfferForm';
export { OfferList } from './components/OfferList';
export { useOffers } from './hooks/use-offers';

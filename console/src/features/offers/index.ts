export { offerKeys } from './api/keys';
export { NewOfferForm } from './components/NewOfferForm';
export { OfferList } from './components/OfferList';
export { PricingDrawer } from './components/OfferPricing';
export { SpreadTable } from './components/SpreadTable';
export { useOffers } from './hooks/use-offers';

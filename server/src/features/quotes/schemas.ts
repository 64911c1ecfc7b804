import { Type } from 'typebox';
import { EstimateResult } from '../catalog/schemas.js';

export const FirmQuote = Type.Object({
  ...EstimateResult.properties,
  quoteId: Type.String({
    format: 'uuid',
    description: 'Give it as `quoteId` to POST /partner/orders to order at these figures; usable once',
  }),
  expiresAt: Type.Unsafe<Date | string>(
    Type.String({
      format: 'date-time',
      description: 'The quote cannot be used from this instant (QUOTE_TTL_SECONDS after it was taken)',
    }),
  ),
});

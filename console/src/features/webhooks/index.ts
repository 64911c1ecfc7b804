export { webhookKeys } from './api/keys';
export { DeliveryDrawer } from './components/DeliveryDrawer';
export { DeliveryLog } from './components/DeliveryLog';
export { Health } from './components/Health';
export { WebhookActions } from './components/WebhookActions';
export { WebhooksInTrouble } from './components/WebhooksInTrouble';
export { WebhookTable } from './components/WebhookTable';
export { useDeliveryLog, useWebhook, useWebhooks } from './hooks/use-webhooks';

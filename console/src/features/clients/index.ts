export { clientKeys } from './api/keys';
export { ClientForm } from './components/ClientForm';
export { CLIENT_PAGE, useClients } from './hooks/use-clients';
